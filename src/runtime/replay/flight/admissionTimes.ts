import type { FlightRun } from './readFlight.js';

/**
 * When the recorded engine acted on each placement and cancel, by intent id. A placement: its
 * `submitted` event (admitted, about to be signed), or, for one never admitted, the first of its
 * end (refused, or cancelled while it waited) and its outcome. A cancel: its request, or its
 * outcome when it sent none (its order had filled meanwhile). A replay holds each until then: the
 * recorded engine's waits (a rate limit, a busy event loop) ran on real timers, which fire late,
 * while the replay's virtual ones fire on time, and an engine that acts early sees another state
 * (an order still queued in the recording is in flight, a fill not yet arrived), and does another
 * thing (a cancel sent to the venue, where the recorded one was told the order had filled).
 */
export function admissionTimes(flight: FlightRun): Map<string, number> {
  const times = placementTimes(flight);
  for (const [id, t] of cancelTimes(flight)) times.set(id, t);
  return times;
}

function placementTimes(flight: FlightRun): Map<string, number> {
  const submitted = new Map<string, number>();
  const ended = new Map<string, number>();
  const placements = new Set<string>();
  for (const record of flight.records) {
    if (record.type === 'order') {
      const id = stringField(record.event, 'intentId');
      const type = record.event['type'];
      if (id === undefined) continue;
      if (type === 'queued') placements.add(id);
      else if (type === 'submitted') firstOf(submitted, id, record.t);
      else if (type === 'refused' || type === 'cancelled') firstOf(ended, id, record.t);
    } else if (record.type === 'outcome') {
      const id = stringField(record.outcome, 'intentId');
      if (id !== undefined) firstOf(ended, id, record.t);
    }
  }
  const times = new Map<string, number>();
  for (const id of placements) {
    const at = submitted.get(id) ?? ended.get(id);
    if (at !== undefined) times.set(id, at);
  }
  return times;
}

/** Each cancel's request (the first naming its order, sent after the cancel), or its outcome when that came first. */
function cancelTimes(flight: FlightRun): Map<string, number> {
  const orderIds = placedOrderIds(flight);
  const acted = new Map<string, number>();
  const cancels: { readonly id: string; readonly t: number; readonly orderId: string }[] = [];
  const earliest = (id: string, t: number): void => {
    const known = acted.get(id);
    if (known === undefined || t < known) acted.set(id, t);
  };
  const isCancel = new Set<string>();
  for (const record of flight.records) {
    if (record.type === 'intent' && record.intent['kind'] === 'cancel') {
      const id = stringField(record.intent, 'intentId') ?? '';
      isCancel.add(id);
      const orderId = cancelledOrderId(record.intent, orderIds);
      if (orderId !== undefined) cancels.push({ id, t: record.t, orderId });
    } else if (record.type === 'outcome') {
      const id = stringField(record.outcome, 'intentId');
      if (id !== undefined && isCancel.has(id)) earliest(id, record.t);
    } else if (record.type === 'rest' && record.path.startsWith('/v1/orders/cancel')) {
      const index = cancels.findIndex((c) => c.t <= record.sentAt && (record.body ?? '').includes(c.orderId));
      const cancel = cancels[index];
      if (cancel === undefined) continue;
      earliest(cancel.id, record.sentAt);
      cancels.splice(index, 1);
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
  const target = intent['target'];
  if (typeof target !== 'object' || target === null) return undefined;
  const byOrder = stringField(target as Record<string, unknown>, 'orderId');
  const byIntent = stringField(target as Record<string, unknown>, 'intentId');
  return byOrder ?? (byIntent === undefined ? undefined : orderIds.get(byIntent));
}

function firstOf(map: Map<string, number>, id: string, t: number): void {
  if (!map.has(id)) map.set(id, t);
}

function stringField(value: Record<string, unknown>, name: string): string | undefined {
  const field = value[name];
  return typeof field === 'string' ? field : undefined;
}
