import { PerpbotError } from '../../core/perpbotError.js';
import { VenueError } from '../../venue/venueError.js';
import type { SendReceipt } from '../sending/actionSender.js';
import { finishedCancelTarget } from './finishedCancelTarget.js';
import type { SendResult } from '../sending/sendResult.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { AcceptedOutcome, IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';

/** The intent's terminal outcome for the send's result. */
export function outcomeOf(intent: Intent, action: ResolvedAction, result: SendResult, atMs: number): IntentOutcome {
  const { intentId, strategy, kind, marketId } = intent;
  switch (result.type) {
    case 'accepted':
      if (result.receipt.dryRun !== true) return acceptedOutcome(intent, result.receipt, atMs);
      return {
        intentId,
        strategy,
        kind,
        marketId,
        type: 'dry_run',
        request: { path: action.action, body: result.request.body },
        atMs,
      };
    case 'unknown':
      return {
        intentId,
        strategy,
        kind,
        marketId,
        type: 'unknown',
        reason: result.error.message,
        hints: result.error.hints,
        atMs,
      };
    case 'withheld':
      return refusedOutcome(intent, result.refusal, atMs);
    case 'failed': {
      // A cancel that found its order already gone did what it wanted: not a failure (the tracker is left alone).
      const finished = finishedCancelTarget(intent, action, result.error);
      if (finished !== undefined) return refusedOutcome(intent, finished, atMs);
      return failedOutcome(intent, result.error, atMs);
    }
  }
}

export function refusedOutcome(intent: Intent, r: Refusal, atMs: number): IntentOutcome {
  return {
    intentId: intent.intentId,
    strategy: intent.strategy,
    kind: intent.kind,
    marketId: intent.marketId,
    type: 'refused',
    refusal: r,
    atMs,
  };
}

export function failedOutcome(intent: Intent, error: unknown, atMs: number): IntentOutcome {
  const { intentId, strategy, kind, marketId } = intent;
  return { intentId, strategy, kind, marketId, type: 'failed', error: errorSummary(error), atMs };
}

/** Built as a literal: outcomes are made for every intent, and spreads that add fields are slow in V8. */
function acceptedOutcome(intent: Intent, receipt: SendReceipt, atMs: number): AcceptedOutcome {
  // Fields in the order the outcome always had (atMs last), for logs and journals.
  const outcome = {
    intentId: intent.intentId,
    strategy: intent.strategy,
    kind: intent.kind,
    marketId: intent.marketId,
    type: 'accepted',
  } as { -readonly [K in keyof AcceptedOutcome]: AcceptedOutcome[K] };
  if (receipt.orderId !== undefined) outcome.orderId = receipt.orderId;
  if (receipt.txHash !== undefined) outcome.txHash = receipt.txHash;
  outcome.atMs = atMs;
  return outcome;
}

export function errorSummary(error: unknown): {
  code: string;
  kind?: string;
  message: string;
  hints: readonly string[];
} {
  if (error instanceof VenueError)
    return { code: error.code, kind: error.kind, message: error.message, hints: error.hints };
  if (error instanceof PerpbotError) return { code: error.code, message: error.message, hints: error.hints };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error), hints: [] };
}
