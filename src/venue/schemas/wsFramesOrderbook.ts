import { z } from 'zod';
import {
  envelopeMeta,
  envelopeTailShape,
  frameTypeSchema,
  type EnvelopeMeta,
  type FrameType,
} from './wsFramesEnvelope.js';
import { WireOrderbookLevel } from './wireOrderbookLevel.js';
import { marketIdSchema, nonNegativeIntSchema, UINT32_MAX, weiStringSchema } from './wsFramesFields.js';

/**
 * orderbook channel (venue-facts): a snapshot, then updates carrying absolute levels; quantity
 * "0" deletes a level. Prices and quantities are integer wei strings on the wire (the checksum is
 * computed over those strings), decoded to exact decimals with the wei kept alongside.
 */
export const orderbookLevelWireSchema = z.object({
  price: weiStringSchema,
  quantity: weiStringSchema,
  order_count: nonNegativeIntSchema,
});
export type OrderbookLevelWire = z.input<typeof orderbookLevelWireSchema>;

export const orderbookWireFrameSchema = z
  .object({
    channel: z.literal('orderbook'),
    type: frameTypeSchema,
    market_id: marketIdSchema.optional(),
    data: z.object({
      market_id: marketIdSchema,
      bids: z.array(orderbookLevelWireSchema),
      asks: z.array(orderbookLevelWireSchema),
      checksum: z.number().int().min(0).max(UINT32_MAX).optional(),
    }),
    ...envelopeTailShape,
  })
  .refine((frame) => frame.market_id === undefined || frame.market_id === frame.data.market_id, {
    message: 'envelope market_id differs from data.market_id',
    path: ['market_id'],
  });
export type OrderbookWireFrame = z.input<typeof orderbookWireFrameSchema>;

export interface OrderbookLevel {
  /** Exact decimal. */
  readonly price: string;
  readonly quantity: string;
  /** The wire integers, kept for exact ordering. */
  readonly priceWei: bigint;
  readonly quantityWei: bigint;
  /** The wire's integer wei strings without leading zeros: what the checksum covers. */
  readonly priceText: string;
  readonly quantityText: string;
  readonly orderCount: number;
  readonly isDeletion: boolean;
}

export interface OrderbookMessage extends EnvelopeMeta {
  readonly channel: 'orderbook';
  readonly type: FrameType;
  readonly marketId: number;
  readonly bids: readonly OrderbookLevel[];
  readonly asks: readonly OrderbookLevel[];
  readonly checksum?: number;
}

export function toOrderbookLevel(wire: { price: string; quantity: string; order_count: number }): OrderbookLevel {
  return new WireOrderbookLevel(wire.price, wire.quantity, wire.order_count);
}

export const orderbookFrameSchema = orderbookWireFrameSchema.transform((frame): OrderbookMessage => ({
  ...envelopeMeta(frame),
  channel: 'orderbook',
  type: frame.type,
  marketId: frame.data.market_id,
  bids: frame.data.bids.map(toOrderbookLevel),
  asks: frame.data.asks.map(toOrderbookLevel),
  ...(frame.data.checksum === undefined ? {} : { checksum: frame.data.checksum }),
}));
