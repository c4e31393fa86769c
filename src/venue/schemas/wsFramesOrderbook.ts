import { z } from 'zod';
import {
  envelopeMeta,
  envelopeTailShape,
  frameTypeSchema,
  type EnvelopeMeta,
  type FrameType,
} from './wsFramesEnvelope.js';
import { WireOrderbookLevel, type OrderbookLevel } from './wireOrderbookLevel.js';
import { bookDecimalSchema, marketIdSchema, nonNegativeIntSchema, UINT32_MAX } from './wsFramesFields.js';

export type { OrderbookLevel } from './wireOrderbookLevel.js';

/**
 * orderbook channel as the venue sends it (venue-wire.md §3, orderbook snapshot and update): a
 * snapshot, then updates carrying absolute levels; quantity "0" deletes a level. Levels are
 * decimal strings; only the checksum input is wei. The envelope's `market_id` is a string and
 * `data.market_id` a number (either type is accepted for both; they must agree when both are
 * present). `level_count` and, on updates, `checksum` sit at the envelope; the older reading put
 * `checksum` in `data`, which is still accepted (the envelope's wins). `method` and any other
 * key are ignored. This is the tolerant decoder; the exact shape is `wsWireCanonical.ts`.
 */
export const orderbookLevelWireSchema = z.object({
  price: bookDecimalSchema,
  quantity: bookDecimalSchema,
  order_count: nonNegativeIntSchema,
});

const checksumSchema = z.number().int().min(0).max(UINT32_MAX);

export const orderbookWireFrameSchema = z
  .object({
    channel: z.literal('orderbook'),
    type: frameTypeSchema,
    market_id: marketIdSchema.optional(),
    level_count: nonNegativeIntSchema.optional(),
    checksum: checksumSchema.optional(),
    data: z.object({
      market_id: marketIdSchema.optional(),
      bids: z.array(orderbookLevelWireSchema),
      asks: z.array(orderbookLevelWireSchema),
      checksum: checksumSchema.optional(),
    }),
    ...envelopeTailShape,
  })
  .superRefine((frame, ctx) => {
    if (frame.market_id === undefined && frame.data.market_id === undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'a market id (market_id or data.market_id)',
        path: ['data', 'market_id'],
      });
    else if (
      frame.market_id !== undefined &&
      frame.data.market_id !== undefined &&
      frame.market_id !== frame.data.market_id
    )
      ctx.addIssue({ code: 'custom', message: 'the same market id as data.market_id', path: ['market_id'] });
  });

export interface OrderbookMessage extends EnvelopeMeta {
  readonly channel: 'orderbook';
  readonly type: FrameType;
  readonly marketId: number;
  readonly bids: readonly OrderbookLevel[];
  readonly asks: readonly OrderbookLevel[];
  /** CRC32 of the whole book after this message; updates carry it, snapshots do not. */
  readonly checksum?: number;
  /** Levels the venue says the book holds (the envelope's `level_count`), when sent. */
  readonly levelCount?: number;
}

export function toOrderbookLevel(wire: { price: string; quantity: string; order_count: number }): OrderbookLevel {
  return new WireOrderbookLevel(wire.price, wire.quantity, wire.order_count);
}

export const orderbookFrameSchema = orderbookWireFrameSchema.transform((frame): OrderbookMessage => {
  const checksum = frame.checksum ?? frame.data.checksum;
  return {
    ...envelopeMeta(frame),
    channel: 'orderbook',
    type: frame.type,
    // The refinement above guarantees one of the two.
    marketId: frame.data.market_id ?? frame.market_id ?? 0,
    bids: frame.data.bids.map(toOrderbookLevel),
    asks: frame.data.asks.map(toOrderbookLevel),
    ...(checksum === undefined ? {} : { checksum }),
    ...(frame.level_count === undefined ? {} : { levelCount: frame.level_count }),
  };
});
