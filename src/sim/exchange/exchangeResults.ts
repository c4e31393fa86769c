import type { ExchangeEvent } from './exchangeEvents.js';
import type { OrderRecord } from './exchangeRecords.js';

/** What the exchange's mutating calls return: the outcome and the events it produced, in order. */
export interface PlaceOrderResult {
  readonly order: OrderRecord;
  /** Decimal size filled by this placement (the place response's `filled_quantity`). */
  readonly filled_quantity: string;
  /** 0..100, integer percent of size_steps filled now (`filled_percent`). */
  readonly filled_percent: number;
  readonly events: readonly ExchangeEvent[];
}

export interface ActionResult {
  readonly events: readonly ExchangeEvent[];
}

export interface CancelAllResult extends ActionResult {
  readonly cancelled: readonly OrderRecord[];
}
