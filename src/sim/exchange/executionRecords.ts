import { weiToDecimal } from '../../core/decimal.js';
import type { FillRecord, TradeRecord } from './exchangeRecords.js';
import type { SimOrder } from './simOrder.js';

/** What one execution printed, shared by its trade and both fills: decimal texts, time in ns. */
export interface ExecutionPrint {
  readonly price: string;
  readonly size: string;
  readonly time: string;
}

/** The trades channel's record of one execution between a resting maker and a taker. */
export function tradeRecord(
  id: string,
  maker: SimOrder,
  taker: SimOrder,
  print: ExecutionPrint,
  makerFeeWei: bigint,
  takerFeeWei: bigint,
): TradeRecord {
  return {
    id,
    market_id: maker.marketId,
    maker_order_id: maker.orderId,
    taker_order_id: taker.orderId,
    maker: maker.account,
    taker: taker.account,
    maker_side: maker.side,
    price: print.price,
    size: print.size,
    fee_maker: weiToDecimal(makerFeeWei),
    fee_taker: weiToDecimal(takerFeeWei),
    time: print.time,
  };
}

/** One side's fill of an execution, as the fills channel and the fill history give it. */
export function fillRecord(
  id: string,
  order: SimOrder,
  liquidity: 'MAKER' | 'TAKER',
  print: ExecutionPrint,
  feeWei: bigint,
  realizedPnlWei: bigint,
): FillRecord {
  return {
    id,
    market_id: order.marketId,
    account: order.account,
    order_id: order.orderId,
    side: order.side,
    price: print.price,
    size: print.size,
    fee: weiToDecimal(feeWei),
    time: print.time,
    liquidity_indicator: liquidity,
    ...(order.clientOrderId === undefined ? {} : { client_order_id: order.clientOrderId.toString() }),
    realized_pnl: weiToDecimal(realizedPnlWei),
  };
}
