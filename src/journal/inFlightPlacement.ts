import { clientOrderIdOf } from './inFlightFate.js';
import type { InFlightIntent } from './journalRows.js';

const PLACE_KINDS: ReadonlySet<string> = new Set(['placeLimit', 'placeMarket', 'closePosition']);

/** Whether an in-flight intent places an order (and so may rest on the book or fill). */
export function isPlacement(f: InFlightIntent): boolean {
  return PLACE_KINDS.has(f.kind);
}

/** The client_order_id of an in-flight intent's order: journaled with the order, else read from its requests. */
export function placementClientOrderId(f: InFlightIntent): string | undefined {
  return f.order?.clientOrderId ?? clientOrderIdOf(f);
}
