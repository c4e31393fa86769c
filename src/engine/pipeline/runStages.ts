import { preTradeChecks } from '../checks/preTradeChecks.js';
import type { WireAction } from '../checks/wireAction.js';
import { cancelledWhileQueued } from '../accept/cancelledWhileQueued.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import { nonceFor } from '../nonces/nonceFor.js';
import type { SendResult } from '../sending/sendResult.js';
import { sendWithPolicy, type SendHold } from '../sending/sendWithPolicy.js';
import { resolveCancel } from '../signing/resolveCancel.js';
import { signWith } from '../signing/signAction.js';
import type { ResolvedAction } from '../signing/signedRequest.js';
import { outcomeOf, refusedOutcome } from './intentOutcomes.js';
import type { PipelineDeps } from './pipelineDeps.js';
import { trackRefused, trackSendResult, trackSubmitted } from './trackSendResult.js';

/**
 * One accepted intent through the stages that follow, in order: the pre-trade checks, admission
 * (the strategy's budget, the account's limits and rate), then a nonce, the signature, the send
 * with its retry policy, and what the result means for the order model; at most one executed
 * venue action and exactly one terminal outcome. The admission's in-flight ticket is released in
 * one place, the `finally` below, whatever happens after it was given.
 */
export async function runStages(
  intent: Intent,
  deps: PipelineDeps,
  signal?: AbortSignal,
  hold?: SendHold,
): Promise<IntentOutcome> {
  const state = deps.tracker.accountState();
  const verdict = preTradeChecks(intent, deps.market(intent.marketId), state, deps.config.preTrade);
  if (!verdict.ok) return refused(intent, verdict.refusal, deps);
  // Decided at once when nothing has to be waited for: no microtask hop on an order's way out.
  let admitted = deps.admitNow?.(verdict.intent, state);
  if (admitted === undefined) admitted = await deps.admit(verdict.intent, state);
  if (admitted !== undefined && 'rule' in admitted) return refused(intent, admitted, deps);
  try {
    return await sendAdmitted(intent, verdict.action, deps, signal, hold);
  } finally {
    admitted?.settled();
  }
}

/**
 * A nonce (permit mode), the signature, the send: synchronous up to the socket when a nonce is free
 * and the signer answers at once. The send stage signs anew itself when its retry policy asks.
 */
function signAndSend(
  intent: Intent,
  action: ResolvedAction,
  deps: PipelineDeps,
  signal: AbortSignal | undefined,
): Promise<SendResult> {
  const nonce = deps.auth.mode === 'permit' ? nonceFor(deps.auth.allocator, signal) : undefined;
  const signed =
    nonce instanceof Promise
      ? nonce.then((pair) => signWith(pair, intent.intentId, action, deps))
      : signWith(nonce, intent.intentId, action, deps);
  return signed instanceof Promise
    ? signed.then((request) => sendWithPolicy(intent, action, deps, signal, request))
    : sendWithPolicy(intent, action, deps, signal, signed);
}

/** The admitted action: its cancel target resolved, then nonce, signature, send, and the order model told. */
async function sendAdmitted(
  intent: Intent,
  action: WireAction,
  deps: PipelineDeps,
  signal: AbortSignal | undefined,
  hold: SendHold | undefined,
): Promise<IntentOutcome> {
  // Only a cancel has something to look up (its resting id); every other action goes as checked.
  const resolved = action.action === 'cancelOrder' ? await resolveCancel(action, deps) : action;
  if ('rule' in resolved) return refused(intent, resolved, deps);
  if (resolved.action === 'placeOrder' && !trackSubmitted(intent, resolved, deps.tracker))
    // Cancelled in the moment between its admission and here: nothing is sent.
    return refusedOutcome(intent, cancelledWhileQueued(intent), deps.clock.now());
  // Before the nonce: a pair allocated and held would count as in flight and could keep the
  // allocator from rolling to the next anchor, which the action the hold waits for may need.
  const withheld = hold === undefined ? undefined : await hold;
  const result: SendResult =
    withheld === undefined
      ? await signAndSend(intent, resolved, deps, signal)
      : { type: 'withheld', refusal: withheld };
  trackSendResult(intent, resolved, result, deps.tracker);
  return outcomeOf(intent, resolved, result, deps.clock.now());
}

/** The refused outcome, a placement's order settled as refused. */
function refused(intent: Intent, r: Refusal, deps: PipelineDeps): IntentOutcome {
  trackRefused(intent, r, deps.tracker);
  return refusedOutcome(intent, r, deps.clock.now());
}
