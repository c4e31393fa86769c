import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { Side } from '../intents/intents.js';
import type { TrackedOrder } from '../orders/trackedOrder.js';

/** A fill as the engine, its ledger and the journal count it: the venue's fill with its order's intent and strategy. */
export interface TrackedFill {
  readonly id: string;
  readonly marketId: number;
  readonly orderId: string;
  readonly intentId?: string;
  readonly strategy?: string;
  readonly side: Side;
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly liquidity: 'MAKER' | 'TAKER';
}

/** A venue fill as the engine and the journal keep it, with the intent and strategy of its order when known. */
/** Whose a fill is: its order's intent and strategy (or, for a TP/SL's execution, the protecting strategy's). */
export type FillOwner = Pick<TrackedOrder, 'intentId' | 'strategy'>;

export function trackedFill(fill: FillRecord, order: FillOwner | undefined): TrackedFill {
  return {
    id: fill.id,
    marketId: fill.market_id,
    orderId: fill.order_id,
    ...(order === undefined ? {} : { intentId: order.intentId, strategy: order.strategy }),
    side: fill.side,
    price: fill.price,
    size: fill.size,
    fee: fill.fee,
    liquidity: fill.liquidity_indicator,
  };
}
