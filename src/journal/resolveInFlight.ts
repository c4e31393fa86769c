import { isResting } from '../engine/orders/orderState.js';
import { storedOrder } from '../engine/orders/storedOrder.js';
import { describeHistoryOrder, historyRecorded } from './historyFills.js';
import { inFlightFate } from './inFlightFate.js';
import { isPlacement, placementClientOrderId } from './inFlightPlacement.js';
import type { InFlightIntent } from './journalRows.js';
import type { ReconciliationRun } from './reconciliationRun.js';

/**
 * Resolves each intent an earlier run left in flight from the best evidence there is: its order
 * resting on the venue, else its record in the venue's order history, else its nonce pair. A
 * placement that executed (or may have) and is neither resting nor in the history is left to the
 * position to judge. What each says of its order is an event the order model applies.
 */
export function resolveInFlightIntents(run: ReconciliationRun): void {
  for (const f of run.inputs.inFlight) {
    run.handled.add(f.intentId);
    if (!resolveResting(run, f) && !resolveFromHistory(run, f)) resolveByNonce(run, f);
  }
}

/** A placement whose client_order_id rests on the venue: its order rests there. */
function resolveResting(run: ReconciliationRun, f: InFlightIntent): boolean {
  const coid = placementClientOrderId(f);
  const resting = coid === undefined ? undefined : run.inputs.openByCoid.get(coid);
  if (!isPlacement(f) || resting === undefined || f.order === undefined) return false;
  run.applyEvent(storedOrder(f.order), {
    type: 'found_resting',
    cause: 'venue_open_orders',
    orderId: resting.order_id,
    restingOrderId: resting.resting_order_id,
  });
  run.recordOutcome(f, { type: 'accepted', orderId: resting.order_id });
  run.differences.push({
    type: 'in_flight_resolved',
    intentId: f.intentId,
    kind: f.kind,
    resolution: 'open',
    orderId: resting.order_id,
    reason: `client_order_id ${coid} is open on the venue`,
  });
  return true;
}

/** A placement whose order is in the venue's order history (by id, else client_order_id): executed, with its fate. */
function resolveFromHistory(run: ReconciliationRun, f: InFlightIntent): boolean {
  const { history } = run.inputs;
  if (!isPlacement(f) || !history.available || f.order === undefined) return false;
  const coid = placementClientOrderId(f);
  const found =
    (f.order.orderId === undefined ? undefined : history.order(f.order.orderId)) ??
    (coid === undefined ? undefined : history.byClientOrderId(coid));
  // ORDER_STATUS_NONE says nothing of its fate.
  if (found === undefined || found.status === 'ORDER_STATUS_NONE') return false;
  const { state } = run.applyEvent(storedOrder(f.order), historyRecorded(found));
  run.recordOutcome(f, { type: 'accepted', orderId: found.id });
  run.differences.push({
    type: 'in_flight_resolved',
    intentId: f.intentId,
    kind: f.kind,
    resolution: state === 'filled' || state === 'cancelled' ? state : isResting(state) ? 'open' : 'executed',
    orderId: found.id,
    reason: `order history: client_order_id ${coid ?? '-'} is ${describeHistoryOrder(found)}`,
  });
  return true;
}

/** What the venue's nonce state says of the intent's signed requests (see `inFlightFate`). */
function resolveByNonce(run: ReconciliationRun, f: InFlightIntent): void {
  const fate = inFlightFate(f, run.inputs.nonce, Math.floor(run.atMs / 1000));
  const coid = placementClientOrderId(f);
  const placed = isPlacement(f) ? f.order : undefined;
  if (fate.kind === 'not_executed') {
    resolveNotExecuted(run, f, fate.reason, 'nonce_state');
  } else if (fate.kind === 'pending') {
    run.pendingUntil(fate.retryAtMs);
    run.differences.push({
      type: 'in_flight_unresolved',
      intentId: f.intentId,
      kind: f.kind,
      reason: fate.reason,
      retryAtMs: fate.retryAtMs,
    });
  } else if (placed !== undefined && fate.kind === 'unknowable' && run.inputs.history.available && coid !== undefined) {
    // Its anchor is past, so the nonce cannot say; the order history can: no order has its client_order_id.
    resolveNotExecuted(
      run,
      f,
      `no order with client_order_id ${coid} in the venue's order history since it was sent`,
      'order_history',
    );
  } else if (placed !== undefined) {
    // Executed (or possibly executed), not resting, and not in the history: judged by the position.
    run.candidates.push({
      order: storedOrder(placed),
      orderId: placed.orderId ?? `coid:${coid ?? f.intentId}`,
      inFlight: f,
      fate: fate.kind === 'executed' ? 'executed' : 'unknowable',
    });
  } else if (fate.kind === 'executed') {
    run.recordOutcome(f, { type: 'accepted' });
    run.differences.push({
      type: 'in_flight_resolved',
      intentId: f.intentId,
      kind: f.kind,
      resolution: 'executed',
      reason: fate.reason,
    });
  } else {
    run.differences.push({ type: 'in_flight_unresolved', intentId: f.intentId, kind: f.kind, reason: fate.reason });
  }
}

function resolveNotExecuted(
  run: ReconciliationRun,
  f: InFlightIntent,
  reason: string,
  cause: 'nonce_state' | 'order_history',
): void {
  if (f.order !== undefined) run.applyEvent(storedOrder(f.order), { type: 'not_executed', cause });
  run.recordOutcome(f, { type: 'failed', error: { code: 'NOT_EXECUTED', message: reason, hints: [] } });
  run.differences.push({
    type: 'in_flight_resolved',
    intentId: f.intentId,
    kind: f.kind,
    resolution: 'not_executed',
    reason,
  });
}
