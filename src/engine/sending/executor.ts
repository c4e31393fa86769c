import { PerpbotError } from '../../core/perpbotError.js';
import { VenueError } from '../../venue/venueError.js';
import type { SendReceipt } from './actionSender.js';
import type { ExecutorDeps } from './executorDeps.js';
import type { AcceptedOutcome, IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { InFlightTicket } from '../admission/inFlightActions.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { preTradeChecks } from '../checks/preTradeChecks.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import { finishedCancelTarget } from './finishedCancelTarget.js';
import { isUnconfirmed, sendWithPolicy, type SendHold, type SendResult } from './sendWithPolicy.js';
import type { ResolvedAction } from './signedRequest.js';
import type { WireAction } from './wireAction.js';

export { type ExecutorDeps } from './executorDeps.js';

/**
 * Turns one intent into at most one executed venue action: checks, guards, a nonce, a signature,
 * the send, and the retry policy's decisions, ending in exactly one terminal outcome. The same
 * signed bytes are resent after an answerless failure (the nonce makes that idempotent); a new
 * signature is made only when the old nonce is known not to have executed.
 */
export async function executeIntent(
  intent: Intent,
  deps: ExecutorDeps,
  signal?: AbortSignal,
  hold?: SendHold,
): Promise<IntentOutcome> {
  const state = deps.tracker.accountState();
  const verdict = preTradeChecks(intent, deps.market(intent.marketId), state, deps.config.preTrade);
  if (!verdict.ok) return refused(intent, verdict.refusal, deps);
  // Decided at once when nothing has to be waited for: no microtask hop on an order's way out.
  let admitted = deps.guardNow?.(verdict.intent, state);
  if (admitted === undefined) admitted = await deps.guard(verdict.intent, state);
  if (admitted !== undefined && 'rule' in admitted) return refused(intent, admitted, deps);
  // Admitted: the action counts as in flight (and a leverage update holds its one-at-a-time slot)
  // until it settles. This ticket is the one thing that releases it, on every path below.
  const ticket = admitted;

  // Only a cancel has something to look up (its resting id); every other action goes as checked.
  const action = verdict.action;
  const resolved = action.action === 'cancelOrder' ? await resolveCancelHeld(action, ticket, deps) : action;
  if ('rule' in resolved) {
    ticket?.settled();
    return refused(intent, resolved, deps);
  }
  if (resolved.action === 'placeOrder' && !trackPending(intent, resolved, deps)) {
    // Cancelled in the moment between its admission and here: nothing is sent.
    ticket?.settled();
    return refusedOutcome(intent, cancelledBeforeSending(intent), deps.clock.now());
  }
  try {
    const result = await sendWithPolicy(intent, resolved, deps, signal, hold);
    recordResult(intent, resolved, result, deps);
    return outcomeOf(intent, resolved, result, deps.clock.now());
  } finally {
    ticket?.settled();
  }
}

/**
 * The placement is about to be signed and sent: in flight in the order model, with its size and
 * price as checked. False when the order was cancelled while it was queued: it must not go.
 */
function trackPending(
  intent: Intent,
  action: Extract<ResolvedAction, { action: 'placeOrder' }>,
  deps: ExecutorDeps,
): boolean {
  if (deps.tracker.order(intent.intentId)?.state === 'cancelled') return false;
  const order: Parameters<OrderTracker['submitted']>[0] = {
    intentId: intent.intentId,
    strategy: intent.strategy,
    marketId: intent.marketId,
    side: action.order.side === 0 ? 'buy' : 'sell',
    size: action.size,
    price: action.price,
  };
  const clientOrderId = action.order.client_order_id;
  deps.tracker.submitted(clientOrderId === undefined ? order : Object.assign(order, { clientOrderId }));
  return true;
}

function cancelledBeforeSending(intent: Intent): Refusal {
  return refusal('cancelled_queued', intent.intentId, 'cancelled while it waited for admission: nothing was sent');
}

/** What the send's result means for the tracker: the accepted action's effect, or a placement that did not land. */
function recordResult(intent: Intent, action: ResolvedAction, result: SendResult, deps: ExecutorDeps): void {
  if (result.type === 'accepted') onAccepted(action, result.receipt, intent, deps);
  else if (result.type === 'withheld') {
    if (action.action === 'cancelOrder') deps.tracker.cancelDropped(action.order_id);
    if (action.action === 'placeOrder')
      deps.tracker.settle(intent.intentId, 'refused', {
        code: result.refusal.rule,
        reason: result.refusal.reason,
        by: 'checks',
      });
  } else if (action.action === 'placeOrder') {
    if (result.type === 'unknown' || isUnconfirmed(result.error)) deps.tracker.settle(intent.intentId, 'unknown');
    else {
      const error = errorSummary(result.error);
      deps.tracker.settle(intent.intentId, 'failed', { code: error.code, reason: error.message, by: 'venue' });
    }
  }
}

/** The intent's terminal outcome for the send's result. */
function outcomeOf(intent: Intent, action: ResolvedAction, result: SendResult, atMs: number): IntentOutcome {
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
      return { intentId, strategy, kind, marketId, type: 'failed', error: errorSummary(result.error), atMs };
    }
  }
}

/** A module function rather than a closure per intent: the refused outcome, the order settled as refused. */
function refused(intent: Intent, r: Refusal, deps: ExecutorDeps): IntentOutcome {
  if (intent.kind === 'placeLimit' || intent.kind === 'placeMarket' || intent.kind === 'closePosition')
    deps.tracker.settle(intent.intentId, 'refused', { code: r.rule, reason: r.reason, by: 'checks' });
  return refusedOutcome(intent, r, deps.clock.now());
}

function refusedOutcome(intent: Intent, r: Refusal, atMs: number): IntentOutcome {
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

/** `resolveCancel`, settling the admission ticket when the lookup throws (a refusal is settled by the caller). */
async function resolveCancelHeld(
  action: Extract<WireAction, { action: 'cancelOrder' }>,
  ticket: InFlightTicket | undefined,
  deps: ExecutorDeps,
): Promise<ResolvedAction | Refusal> {
  try {
    return await resolveCancel(action, deps);
  } catch (error) {
    ticket?.settled();
    throw error;
  }
}

async function resolveCancel(
  action: Extract<WireAction, { action: 'cancelOrder' }>,
  deps: ExecutorDeps,
): Promise<ResolvedAction | Refusal> {
  let orderId: string | undefined;
  if ('intentId' in action.target) {
    const order = deps.tracker.order(action.target.intentId);
    if (order === undefined)
      return refusal('cancel_target', action.target.intentId, 'no order was placed by that intent');
    orderId = order.orderId;
    if (order.state === 'refused' || order.state === 'failed')
      return refusal('cancel_target_finished', action.target.intentId, `the order is ${order.state}: it never rested`);
    if (orderId === undefined) {
      return refusal(
        'cancel_target',
        action.target.intentId,
        `the order of that intent is ${order.state}, with no venue order id to cancel`,
        'cancel once its placement is accepted',
      );
    }
    if (order.state === 'filled' || order.state === 'cancelled')
      return refusal('cancel_target_finished', action.target.intentId, `the order is already ${order.state}`);
  } else {
    orderId = action.target.orderId;
  }
  // The venue answers a cancel in the wrong market with the same OrderNotFound as one of a finished
  // order: refused here, so that answer can only mean "no longer open".
  const tracked = deps.tracker.orderByOrderId(orderId);
  if (tracked !== undefined && tracked.marketId !== action.market_id) {
    return refusal(
      'cancel_target',
      orderId,
      `the order is in market ${tracked.marketId}, not in market ${action.market_id}`,
      'cancel it with the market it was placed in',
    );
  }
  const resting = deps.tracker.restingIdOf(orderId) ?? (await deps.lookupRestingId(action.market_id, orderId));
  if (resting === undefined)
    return refusal('cancel_target', orderId, 'the order is not open on the venue (no resting_order_id found)');
  return { action: 'cancelOrder', market_id: action.market_id, order_id: orderId, resting_order_id: resting };
}

function errorSummary(error: unknown): { code: string; kind?: string; message: string; hints: readonly string[] } {
  if (error instanceof VenueError)
    return { code: error.code, kind: error.kind, message: error.message, hints: error.hints };
  if (error instanceof PerpbotError) return { code: error.code, message: error.message, hints: error.hints };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error), hints: [] };
}
