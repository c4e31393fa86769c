import { z } from 'zod';
import { weiToDecimal } from '../../core/decimal.js';
import { envelopeMeta, envelopeTailShape, type EnvelopeMeta } from './wsFramesEnvelope.js';
import { MARKET_ID_MAX, MARKET_ID_PATTERN, nonNegativeIntSchema, weiStringSchema } from './wsFramesFields.js';

/**
 * oracle channel, exactly per the spec: one update per block, `market_id` null, `data.prices`
 * keyed by market-id string, prices as integer wei strings. `tx_hash`, `block_number` and
 * `log_index` are required here (the spec lists them for every oracle update).
 */
export const oraclePriceWireSchema = z.object({
  index_price: weiStringSchema.optional(),
  mark_price: weiStringSchema.optional(),
});

export const oracleMarketKeySchema = z
  .string()
  .regex(MARKET_ID_PATTERN, 'a numeric market id')
  .refine((key) => Number(key) <= MARKET_ID_MAX, 'a market id that fits in 16 bits');

export const oracleWireFrameSchema = z.object({
  channel: z.literal('oracle'),
  type: z.literal('update'),
  market_id: z.null().optional(),
  data: z.object({
    prices: z.record(oracleMarketKeySchema, oraclePriceWireSchema),
    timestamp: z.number().min(0),
  }),
  ...envelopeTailShape,
  tx_hash: z.string(),
  block_number: nonNegativeIntSchema,
  log_index: nonNegativeIntSchema,
});
export type OracleWireFrame = z.input<typeof oracleWireFrameSchema>;

/** Exact decimal prices (wei / 10^18); a field the venue did not send stays absent. */
export interface OraclePrice {
  readonly indexPrice?: string;
  readonly markPrice?: string;
}

export interface OracleMessage extends EnvelopeMeta {
  readonly channel: 'oracle';
  readonly type: 'update';
  readonly prices: ReadonlyMap<number, OraclePrice>;
  /** Server time in seconds. */
  readonly timestamp: number;
  readonly txHash: string;
  readonly blockNumber: number;
  readonly logIndex: number;
}

export function toOraclePrice(wire: {
  index_price?: string | undefined;
  mark_price?: string | undefined;
}): OraclePrice {
  return {
    ...(wire.index_price === undefined ? {} : { indexPrice: weiToDecimal(wire.index_price) }),
    ...(wire.mark_price === undefined ? {} : { markPrice: weiToDecimal(wire.mark_price) }),
  };
}

export const oracleFrameSchema = oracleWireFrameSchema.transform((frame): OracleMessage => {
  const prices = new Map<number, OraclePrice>();
  for (const [key, price] of Object.entries(frame.data.prices)) prices.set(Number(key), toOraclePrice(price));
  return {
    ...envelopeMeta(frame),
    channel: 'oracle',
    type: 'update',
    prices,
    timestamp: frame.data.timestamp,
    txHash: frame.tx_hash,
    blockNumber: frame.block_number,
    logIndex: frame.log_index,
  };
});
