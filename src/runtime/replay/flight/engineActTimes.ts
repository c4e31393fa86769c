import type { FlightRun } from './readFlight.js';

/**
 * When the recorded engine acted on each intent, by intent id: a strategy's intent reaches the
 * engine at once, but the engine's work on it runs on the event loop, which a busy process (a
 * burst of frames, a collection) can hold for tens of milliseconds, and a frame received meanwhile
 * (a fill of the order a cancel targets) changes what it does. The replay's work takes no virtual
 * time, so it gives each intent to the engine when the recorded one acted on it:
 * - a cancel: when its request left (the first cancel request naming its order, sent after the
 *   intent), or its outcome came, whichever was first (a cancel refused locally sends nothing);
 * - anything else: its first order event or its outcome, whichever was first; but `queued` (the
 *   intent arrived) counts only while the feeds were up: queued while they were down, the
 *   engine's judgement of it waited on the reconnect (`submitted`, `refused` or its outcome).
 * An intent the recorded engine never acted on is absent.
 */
export function engineActTimes(flight: FlightRun): Map<string, number> {
  const orderIds = placedOrderIds(flight);
  const acted = new Map<string, number>();
  const first = (id: string, t: number): void => {
    const known = acted.get(id);
    if (known === undefined || t < known) acted.set(id, t);
  };
  const cancels: { readonly id: string; readonly t: number; readonly orderId: string }[] = [];
  let feedsUp = true;
  for (const record of flight.records) {
    if (record.type === 'connection') feedsUp = record.status === 'authenticated';
    else if (record.type === 'intent') {
      const orderId = cancelledOrderId(record.intent, orderIds);
      if (orderId !== undefined)
        cancels.push({ id: stringField(record.intent, 'intentId') ?? '', t: record.t, orderId });
    } else if (
      record.type === 'outcome' ||
      (record.type === 'order' && (feedsUp || record.event['type'] !== 'queued'))
    ) {
      const id = stringField(record.type === 'outcome' ? record.outcome : record.event, 'intentId');
      if (id !== undefined) first(id, record.t);
    } else if (record.type === 'rest' && record.path.startsWith('/v1/orders/cancel')) {
      const index = cancels.findIndex((c) => c.t <= record.sentAt && (record.body ?? '').includes(c.orderId));
      const cancel = cancels[index];
      if (cancel !== undefined) {
        first(cancel.id, record.sentAt);
        cancels.splice(index, 1);
      }
    }
  }
  return acted;
}

/** The venue's order id of each placement, from its recorded outcome or order events. */
function placedOrderIds(flight: FlightRun): Map<string, string> {
  const ids = new Map<string, string>();
  for (const record of flight.records) {
    const value = record.type === 'outcome' ? record.outcome : record.type === 'order' ? record.event : undefined;
    const intentId = value === undefined ? undefined : stringField(value, 'intentId');
    const orderId = value === undefined ? undefined : stringField(value, 'orderId');
    if (intentId !== undefined && orderId !== undefined) ids.set(intentId, orderId);
  }
  return ids;
}

function cancelledOrderId(intent: Record<string, unknown>, orderIds: ReadonlyMap<string, string>): string | undefined {
  if (intent['kind'] !== 'cancel') return undefined;
  const target = intent['target'];
  if (typeof target !== 'object' || target === null) return undefined;
  const byOrder = stringField(target as Record<string, unknown>, 'orderId');
  const byIntent = stringField(target as Record<string, unknown>, 'intentId');
  return byOrder ?? (byIntent === undefined ? undefined : orderIds.get(byIntent));
}

function stringField(value: Record<string, unknown>, name: string): string | undefined {
  const field = value[name];
  return typeof field === 'string' ? field : undefined;
}
