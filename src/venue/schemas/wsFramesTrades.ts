import { z } from 'zod';
import {
  envelopeMeta,
  envelopeTailShape,
  frameTypeSchema,
  type EnvelopeMeta,
  type FrameType,
} from './wsFramesEnvelope.js';
import { decimalSchema, idSchema, marketIdSchema, sideSchema } from './wsFramesFields.js';

/**
 * trades channel (venue-wire.md §3, trades update): `data: {id, maker_order_id, taker_order_id,
 * maker, taker, maker_side, price, size, fee_maker, fee_taker, fee_liquidation}`, prices and
 * sizes decimal strings. `maker_side` is a JSON number 0/1 on the venue; "0"/"1" and "BUY"/"SELL"
 * are accepted too (public clients disagree). Ids may arrive as numbers. We also accept an array
 * of such objects, and `market_id` (number or string) in the envelope or in data.
 */

export const tradeWireSchema = z.object({
  id: idSchema,
  market_id: marketIdSchema.optional(),
  maker_order_id: idSchema,
  taker_order_id: idSchema,
  maker: z.string(),
  taker: z.string(),
  maker_side: sideSchema,
  price: decimalSchema,
  size: decimalSchema,
  fee_maker: decimalSchema.optional(),
  fee_taker: decimalSchema.optional(),
  fee_liquidation: decimalSchema.optional(),
});

export const tradesWireFrameSchema = z.object({
  channel: z.literal('trades'),
  type: frameTypeSchema,
  market_id: marketIdSchema.optional(),
  data: z.union([tradeWireSchema, z.array(tradeWireSchema)]),
  ...envelopeTailShape,
});

export interface Trade {
  readonly id: string;
  readonly marketId?: number;
  readonly makerOrderId: string;
  readonly takerOrderId: string;
  readonly maker: string;
  readonly taker: string;
  readonly makerSide: 'buy' | 'sell';
  readonly price: string;
  readonly size: string;
  readonly feeMaker?: string;
  readonly feeTaker?: string;
  readonly feeLiquidation?: string;
}

export interface TradesMessage extends EnvelopeMeta {
  readonly channel: 'trades';
  readonly type: FrameType;
  readonly marketId?: number;
  readonly trades: readonly Trade[];
}

export const tradesFrameSchema = tradesWireFrameSchema.transform((frame): TradesMessage => {
  const list = Array.isArray(frame.data) ? frame.data : [frame.data];
  const trades = list.map((t): Trade => {
    const marketId = t.market_id ?? frame.market_id;
    return {
      id: t.id,
      ...(marketId === undefined ? {} : { marketId }),
      makerOrderId: t.maker_order_id,
      takerOrderId: t.taker_order_id,
      maker: t.maker,
      taker: t.taker,
      makerSide: t.maker_side,
      price: t.price,
      size: t.size,
      ...(t.fee_maker === undefined ? {} : { feeMaker: t.fee_maker }),
      ...(t.fee_taker === undefined ? {} : { feeTaker: t.fee_taker }),
      ...(t.fee_liquidation === undefined ? {} : { feeLiquidation: t.fee_liquidation }),
    };
  });
  const marketId = frame.market_id ?? trades[0]?.marketId;
  return {
    ...envelopeMeta(frame),
    channel: 'trades',
    type: frame.type,
    ...(marketId === undefined ? {} : { marketId }),
    trades,
  };
});
