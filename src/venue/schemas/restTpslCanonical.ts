import { z } from 'zod';
import { isDecimalString } from '../../core/decimal.js';
import { STOP_PRICE_OPTIONS, STOP_TYPES, TPSL_ORDER_TYPES, TPSL_SIDES, TPSL_STATUSES, TPSL_TIFS } from './tpslNames.js';

/**
 * GET /v1/orders/tpsl exactly as the simulator sends it: the FB model's fields, one JSON type each
 * (venue-tpsl.md "The TpslOrder record"; protojson: enums by name, 64-bit integers and times as
 * strings, `size_percent_bps` a number, "" for a price not yet known). The decoder
 * (`tpslOrdersDataSchema`) reads more than this; this holds the simulator to one shape.
 */
const dec = z.string().refine(isDecimalString, { error: 'expected a decimal string' });
const int64 = z.string().regex(/^\d+$/, { error: 'expected a 64-bit integer as a JSON string' });
const hashOrEmpty = z.string().regex(/^(0x[0-9a-fA-F]{64})?$/, { error: 'expected a 0x hash or ""' });

export const canonicalTpslOrderSchema = z.strictObject({
  order_id: z.string().min(1),
  account: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  market_id: int64,
  side: z.enum(TPSL_SIDES),
  size: dec,
  stop_type: z.enum(STOP_TYPES),
  order_type: z.enum(TPSL_ORDER_TYPES),
  stop_price: dec,
  limit_price: dec,
  stop_price_option: z.enum([...STOP_PRICE_OPTIONS, 'PRICE_OPTION_NONE']),
  status: z.enum(TPSL_STATUSES),
  tif: z.enum(TPSL_TIFS),
  created_at: int64,
  expires_at: int64,
  triggered_at: int64,
  triggered_price: z.union([z.literal(''), dec]),
  // In venue-tpsl.md's record, absent from FB's fixture: the simulator sends them, "" until known.
  trigger_tx_hash: hashOrEmpty.optional(),
  triggered_tx_hash: hashOrEmpty.optional(),
  size_percent_bps: z.number().int().min(0).max(10_000),
  filled_size: dec,
});
export type TpslOrderWire = z.input<typeof canonicalTpslOrderSchema>;

export const canonicalTpslOrdersSchema = z.strictObject({
  orders: z.array(canonicalTpslOrderSchema),
  total: int64,
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
});
export type TpslOrdersWire = z.input<typeof canonicalTpslOrdersSchema>;
