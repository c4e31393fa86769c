import { PerpbotError } from '../../core/perpbotError.js';
import { VenueError } from '../../venue/venueError.js';
import type { SendReceipt } from './actionSender.js';
import type { ExecutorDeps } from './executorDeps.js';
import type { AcceptedOutcome, IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { preTradeChecks } from '../checks/preTradeChecks.js';
import { rejection, type Rejection } from '../intents/rejection.js';
import { isUnconfirmed, sendWithPolicy } from './sendWithPolicy.js';
import type { ResolvedAction } from './signedRequest.js';
import type { WireAction } from './wireAction.js';

/**
 * Turns one intent into at most one executed venue action: checks, guards, a nonce, a signature,
 * the send, and the retry policy's decisions, ending in exactly one terminal outcome. The same
 * signed bytes are resent after an answerless failure (the nonce makes that idempotent); a new
 * signature is made only when the old nonce is known not to have executed.
 */
export { type ExecutorDeps, type ExecutorLogger } from './executorDeps.js';

export async function executeIntent(intent: Intent, deps: ExecutorDeps, signal?: AbortSignal): Promise<IntentOutcome> {
  const state = deps.tracker.accountState();
  const verdict = preTradeChecks(intent, deps.market(intent.marketId), state, deps.config.preTrade);
  if (!verdict.ok) return refused(intent, verdict.rejection, deps);
  // Decided at once when nothing has to be waited for: no microtask hop on an order's way out.
  let admitted = deps.guardNow?.(verdict.intent, state);
  if (admitted === undefined) admitted = await deps.guard(verdict.intent, state);
  if (admitted !== undefined && 'rule' in admitted) return refused(intent, admitted, deps);
  // Admitted: the action counts as in flight (and a leverage update holds its one-at-a-time slot)
  // until it settles.
  const ticket = admitted;

  // Only a cancel has something to look up (its resting id); every other action goes as checked.
  const action = verdict.action;
  const resolved =
    action.action === 'cancelOrder'
      ? await resolveCancel(action, deps).catch((error: unknown) => {
          ticket?.settled();
          throw error;
        })
      : action;
  if ('rule' in resolved) {
    ticket?.settled();
    return refused(intent, resolved, deps);
  }

  if (resolved.action === 'placeOrder') {
    const order: Parameters<OrderTracker['pending']>[0] = {
      intentId: intent.intentId,
      strategy: intent.strategy,
      marketId: intent.marketId,
      side: resolved.order.side === 0 ? 'buy' : 'sell',
      size: resolved.size,
      price: resolved.price,
    };
    const clientOrderId = resolved.order.client_order_id;
    deps.tracker.pending(clientOrderId === undefined ? order : Object.assign(order, { clientOrderId }));
  }
  try {
    const result = await sendWithPolicy(intent, resolved, deps, signal);
    if (result.type === 'accepted') onAccepted(resolved, result.receipt, intent, deps);
    else if (resolved.action === 'placeOrder')
      deps.tracker.settle(
        intent.intentId,
        result.type === 'unknown' || isUnconfirmed(result.error) ? 'unknown' : 'failed',
      );
    const { intentId, strategy, kind, marketId } = intent;
    if (result.type === 'accepted') {
      if (result.receipt.dryRun === true)
        return {
          intentId,
          strategy,
          kind,
          marketId,
          type: 'dry_run',
          request: { path: resolved.action, body: result.request.body },
          atMs: deps.clock.now(),
        };
      return acceptedOutcome(intent, result.receipt, deps.clock.now());
    }
    if (result.type === 'unknown')
      return {
        intentId,
        strategy,
        kind,
        marketId,
        type: 'unknown',
        reason: result.error.message,
        hints: result.error.hints,
        atMs: deps.clock.now(),
      };
    return {
      intentId,
      strategy,
      kind,
      marketId,
      type: 'failed',
      error: errorSummary(result.error),
      atMs: deps.clock.now(),
    };
  } finally {
    ticket?.settled();
  }
}

/** A module function rather than a closure per intent: the refused outcome, the order settled as rejected. */
function refused(intent: Intent, r: Rejection, deps: ExecutorDeps): IntentOutcome {
  if (intent.kind === 'placeLimit' || intent.kind === 'placeMarket') deps.tracker.settle(intent.intentId, 'rejected');
  return {
    intentId: intent.intentId,
    strategy: intent.strategy,
    kind: intent.kind,
    marketId: intent.marketId,
    type: 'refused',
    rejection: r,
    atMs: deps.clock.now(),
  };
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

function onAccepted(action: ResolvedAction, receipt: SendReceipt, intent: Intent, deps: ExecutorDeps): void {
  if (receipt.dryRun === true) return;
  if (action.action === 'placeOrder' && receipt.orderId !== undefined)
    deps.tracker.placed(intent.intentId, receipt.orderId);
  if (action.action === 'cancelOrder') deps.tracker.cancelled(action.order_id);
  if (action.action === 'cancelAllOrders')
    for (const o of deps.tracker.openOrders({ marketId: action.market_id }))
      if (o.orderId !== undefined) deps.tracker.cancelled(o.orderId);
  if (action.action === 'updateMarginMode')
    deps.tracker.setMarginMode(action.market_id, action.margin_mode === 1 ? 'isolated' : 'cross');
}

async function resolveCancel(
  action: Extract<WireAction, { action: 'cancelOrder' }>,
  deps: ExecutorDeps,
): Promise<ResolvedAction | Rejection> {
  let orderId: string | undefined;
  if ('intentId' in action.target) {
    const order = deps.tracker.order(action.target.intentId);
    if (order === undefined)
      return rejection('cancel_target', action.target.intentId, 'no order was placed by that intent');
    orderId = order.orderId;
    if (orderId === undefined) {
      return rejection(
        'cancel_target',
        action.target.intentId,
        `the order of that intent is ${order.state}, with no venue order id to cancel`,
        'cancel once its placement is accepted',
      );
    }
    if (order.state === 'filled' || order.state === 'cancelled')
      return rejection('cancel_target_finished', action.target.intentId, `the order is already ${order.state}`);
  } else {
    orderId = action.target.orderId;
  }
  const resting = deps.tracker.restingIdOf(orderId) ?? (await deps.lookupRestingId(action.market_id, orderId));
  if (resting === undefined)
    return rejection('cancel_target', orderId, 'the order is not open on the venue (no resting_order_id found)');
  return { action: 'cancelOrder', market_id: action.market_id, order_id: orderId, resting_order_id: resting };
}

function errorSummary(error: unknown): { code: string; kind?: string; message: string; hints: readonly string[] } {
  if (error instanceof VenueError)
    return { code: error.code, kind: error.kind, message: error.message, hints: error.hints };
  if (error instanceof PerpbotError) return { code: error.code, message: error.message, hints: error.hints };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error), hints: [] };
}
