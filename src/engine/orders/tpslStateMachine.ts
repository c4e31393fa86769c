import type { TpslStatus } from '../../venue/schemas/tpslNames.js';
import type { TpslOrder } from './tpslOrder.js';
import { isTerminalTpsl, type TpslState } from './tpslState.js';

/**
 * What happened to a TP/SL order: the input of `applyTpslEvent`. The keeper feeds what it did
 * (the place answer, a refusal, a cancel) and the venue's list what the venue holds.
 */
export type TpslEvent =
  /** The venue accepted the place request and named the order. */
  | { readonly type: 'placed'; readonly venueId: string }
  /** The venue (or a check) refused the place request: it never held the order. */
  | { readonly type: 'place_refused'; readonly reason: string }
  /** The venue refuses TP/SL orders: the engine watches this one itself while it runs. */
  | { readonly type: 'emulate'; readonly reason: string }
  /** An emulated stop's trigger was reached and the engine sent the reduce-only close. */
  | { readonly type: 'emulated_fired'; readonly price: string }
  /** A cancel was sent (or, for an emulated one, decided: nothing on the venue to cancel). */
  | { readonly type: 'cancel_sent' }
  /** The venue's record (its list of TP/SL orders). */
  | {
      readonly type: 'venue_record';
      readonly status: TpslStatus;
      readonly venueId: string;
      readonly filledSize?: string | undefined;
      readonly triggeredPrice?: string | undefined;
      readonly executionTx?: string | undefined;
    }
  /** The venue's full list does not hold it: a placement never landed, or the order is gone. */
  | { readonly type: 'not_listed' };

export interface RefusedTpslMove {
  readonly from: TpslState;
  readonly event: TpslEvent['type'];
  readonly reason: string;
}

export type AppliedTpslEvent =
  | { readonly kind: 'moved'; readonly order: TpslOrder }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'refused'; readonly refusal: RefusedTpslMove };

const VENUE_STATE: Readonly<Record<TpslStatus, TpslState>> = {
  TPSL_ORDER_STATUS_ACCEPTED: 'accepted',
  TPSL_ORDER_STATUS_TRIGGERED: 'triggered',
  TPSL_ORDER_STATUS_SUCCESS: 'executed',
  TPSL_ORDER_STATUS_CANCELLED: 'cancelled',
};

/** The order of states the venue moves through: a record never takes an order back. */
const RANK: Readonly<Record<TpslState, number>> = {
  placing: 0,
  emulated: 0,
  accepted: 1,
  cancelling: 2,
  triggered: 3,
  executed: 4,
  cancelled: 4,
  refused: 4,
};

/** A TP/SL order as the keeper decides it: everything but what the state machine keeps. */
export type TpslSpec = Omit<
  TpslOrder,
  'state' | 'filledSize' | 'venueId' | 'triggeredPrice' | 'executionTx' | 'reason' | 'updatedMs'
>;

/** A new TP/SL order: `placing` (journaled before its place request is sent), nothing filled. */
export function newTpslOrder(spec: TpslSpec): TpslOrder {
  return { ...spec, state: 'placing', filledSize: '0', updatedMs: spec.createdMs };
}

/**
 * The TP/SL state table: which event moves which state where. A terminal order never moves; a
 * venue record moves an order only forward (ACCEPTED → TRIGGERED → SUCCESS, or → CANCELLED), so a
 * stale page read after a newer one changes nothing; a cancel goes only to what the venue may
 * still cancel (ACCEPTED: a TRIGGERED order is executing) or to an emulated one.
 */
export function applyTpslEvent(order: TpslOrder, event: TpslEvent, atMs: number): AppliedTpslEvent {
  if (isTerminalTpsl(order.state)) return refuse(order, event, `${order.state} is an end state`);
  switch (event.type) {
    case 'placed':
      if (order.state !== 'placing') return refuse(order, event, 'only a placement in flight is answered');
      return moved(order, { state: 'accepted', venueId: event.venueId }, atMs);
    case 'place_refused':
      if (order.state !== 'placing') return refuse(order, event, 'only a placement in flight is refused');
      return moved(order, { state: 'refused', reason: event.reason }, atMs);
    case 'emulate':
      if (order.state !== 'placing') return refuse(order, event, 'only a placement the venue refused is emulated');
      return moved(order, { state: 'emulated', reason: event.reason }, atMs);
    case 'emulated_fired':
      if (order.state !== 'emulated') return refuse(order, event, 'only an emulated stop fires locally');
      return moved(order, { state: 'executed', triggeredPrice: event.price }, atMs);
    case 'cancel_sent':
      return cancelSent(order, event, atMs);
    case 'venue_record':
      return venueRecord(order, event, atMs);
    case 'not_listed':
      return notListed(order, atMs);
  }
}

function cancelSent(order: TpslOrder, event: TpslEvent, atMs: number): AppliedTpslEvent {
  if (order.state === 'emulated' || order.state === 'placing')
    return moved(order, { state: 'cancelled', reason: 'cancelled before the venue held it' }, atMs);
  if (order.state === 'accepted') return moved(order, { state: 'cancelling' }, atMs);
  if (order.state === 'cancelling') return { kind: 'unchanged' };
  return refuse(order, event, 'a triggered order is executing and cannot be cancelled');
}

function venueRecord(
  order: TpslOrder,
  event: Extract<TpslEvent, { type: 'venue_record' }>,
  atMs: number,
): AppliedTpslEvent {
  if (order.state === 'emulated') return refuse(order, event, 'an emulated stop has no venue record');
  const state = VENUE_STATE[event.status];
  // A cancel sent and the record still ACCEPTED: the cancel has not landed yet.
  if (RANK[state] < RANK[order.state] || (state === 'accepted' && order.state === 'cancelling'))
    return order.venueId === undefined ? moved(order, { venueId: event.venueId }, atMs) : { kind: 'unchanged' };
  const changes: Partial<TpslOrder> = { state, venueId: event.venueId };
  const next = withChanges(order, {
    ...changes,
    ...(event.filledSize === undefined ? {} : { filledSize: event.filledSize }),
    ...(event.triggeredPrice === undefined ? {} : { triggeredPrice: event.triggeredPrice }),
    ...(event.executionTx === undefined || event.executionTx === '' ? {} : { executionTx: event.executionTx }),
  });
  if (sameOrder(order, next)) return { kind: 'unchanged' };
  return { kind: 'moved', order: { ...next, updatedMs: atMs } };
}

/** Missing from the venue's whole list: a placement that never landed was refused; a held order is gone. */
function notListed(order: TpslOrder, atMs: number): AppliedTpslEvent {
  if (order.state === 'emulated') return { kind: 'unchanged' };
  if (order.state === 'placing')
    return moved(order, { state: 'refused', reason: 'the venue does not list it: never placed' }, atMs);
  return moved(order, { state: 'cancelled', reason: 'no longer listed by the venue' }, atMs);
}

function moved(order: TpslOrder, changes: Partial<TpslOrder>, atMs: number): AppliedTpslEvent {
  return { kind: 'moved', order: { ...withChanges(order, changes), updatedMs: atMs } };
}

function withChanges(order: TpslOrder, changes: Partial<TpslOrder>): TpslOrder {
  return { ...order, ...changes };
}

function sameOrder(a: TpslOrder, b: TpslOrder): boolean {
  return (
    a.state === b.state &&
    a.venueId === b.venueId &&
    a.filledSize === b.filledSize &&
    a.triggeredPrice === b.triggeredPrice &&
    a.executionTx === b.executionTx
  );
}

function refuse(order: TpslOrder, event: TpslEvent, reason: string): AppliedTpslEvent {
  return { kind: 'refused', refusal: { from: order.state, event: event.type, reason } };
}
