import { z } from 'zod';
import { marketIdLooseStringSchema, uintNumberLooseSchema } from './restPrimitives.js';
import {
  cancelAllTpslRequestSchema,
  cancelTpslRequestSchema,
  placeTpslRequestSchema,
  sizePercentBpsSchema,
} from './restTpsl.js';
import {
  STOP_PRICE_OPTIONS,
  STOP_TYPES,
  TPSL_ORDER_TYPES,
  TPSL_SIDES,
  TPSL_TIFS,
  wireNameSchema,
} from './tpslNames.js';

/**
 * The TP/SL bodies as the simulator accepts them: every reading the sources disagree on
 * (venue-tpsl.md "Disputed encodings"): `market_id` a string or a number; `side`, `stop_type`,
 * `order_type`, `stop_price_option` and `tif` by name or number; `deadline` and
 * `size_percent_bps` a number or a digit string (the signature's three encodings are read by the
 * client's schema already). Each extends the client's own schema and gives the same output for the same values.
 */
export const placeTpslAcceptSchema = placeTpslRequestSchema.extend({
  market_id: marketIdLooseStringSchema,
  side: wireNameSchema(TPSL_SIDES, 'side'),
  stop_type: wireNameSchema(STOP_TYPES, 'stop type'),
  order_type: wireNameSchema(TPSL_ORDER_TYPES, 'order type'),
  stop_price_option: wireNameSchema(STOP_PRICE_OPTIONS, 'stop price option'),
  tif: wireNameSchema(TPSL_TIFS, 'time in force'),
  deadline: uintNumberLooseSchema(32),
  size_percent_bps: uintNumberLooseSchema(14).pipe(sizePercentBpsSchema).optional(),
});
export type PlaceTpslBody = z.output<typeof placeTpslAcceptSchema>;

export const cancelTpslAcceptSchema = cancelTpslRequestSchema.extend({
  deadline: uintNumberLooseSchema(32),
});

export const cancelAllTpslAcceptSchema = cancelAllTpslRequestSchema.extend({
  market_id: marketIdLooseStringSchema.pipe(cancelAllTpslRequestSchema.shape.market_id),
  deadline: uintNumberLooseSchema(32),
});
