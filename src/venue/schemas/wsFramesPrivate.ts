import { z } from 'zod';
import {
  envelopeMeta,
  envelopeTailShape,
  frameTypeSchema,
  type EnvelopeMeta,
  type FrameType,
} from './wsFramesEnvelope.js';
import {
  decimalSchema,
  idSchema,
  marketIdSchema,
  NANOS_PATTERN,
  nonNegativeIntSchema,
  sideSchema,
} from './wsFramesFields.js';

/**
 * Account-scoped channels (orders, positions, fills, account), after auth_v2. Payloads are not in
 * the spec; shapes follow venue-facts. Fields beyond those named are kept (loose objects) so the
 * engine can read what the venue adds without a schema change; the named ones are validated and
 * decoded. Amounts on these channels are decimal strings already.
 */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
/** A step or tick count sent as a string (open orders send numbers). */
export const STEP_COUNT_PATTERN = /^\d+$/;
/** `wide_order_id`, `resting_order_id`: decimal digits, "" when unset. */
export const VENUE_ORDER_NUMBER_PATTERN = /^\d*$/;
export const LIQUIDITY_INDICATORS = ['MAKER', 'TAKER'] as const;

const addressSchema = z.string().regex(ADDRESS_PATTERN);

export const ORDER_STATUSES = [
  'ORDER_STATUS_NONE',
  'ORDER_STATUS_OPEN',
  'ORDER_STATUS_FILLED',
  'ORDER_STATUS_CANCELLED',
] as const;

/** "" is how the venue says "none" (venue-wire.md §1, unset values); it decodes as absent. */
const clientOrderIdSchema = z
  .union([z.string(), z.number().int().min(0)])
  .transform((id) => (id === '' ? undefined : String(id)))
  .optional();

const orderRecordObjectSchema = z.looseObject({
  order_id: z.string().min(1),
  market_id: marketIdSchema,
  status: z.enum(ORDER_STATUSES),
  side: sideSchema.optional(),
  account: addressSchema.optional(),
  size_steps: z
    .union([nonNegativeIntSchema, z.string().regex(STEP_COUNT_PATTERN)])
    .transform(String)
    .optional(),
  price_ticks: z
    .union([nonNegativeIntSchema, z.string().regex(STEP_COUNT_PATTERN)])
    .transform(String)
    .optional(),
  filled_size: decimalSchema.optional(),
  client_order_id: clientOrderIdSchema,
  wide_order_id: z.string().regex(VENUE_ORDER_NUMBER_PATTERN).optional(),
  resting_order_id: z.string().regex(VENUE_ORDER_NUMBER_PATTERN).optional(),
});
/**
 * An order on the orders channel: the open-order record (`order_id`) or the history record the
 * venue sends there (venue-wire.md §3, orders: `id`, `sender`, string enums), read as one shape.
 */
export const orderRecordWireSchema = z.preprocess(
  (raw) =>
    typeof raw === 'object' && raw !== null && !('order_id' in raw) && 'id' in raw ? { ...raw, order_id: raw.id } : raw,
  orderRecordObjectSchema,
);
export type OrderRecord = z.output<typeof orderRecordObjectSchema>;

export const ordersFrameSchema = z
  .object({
    channel: z.literal('orders'),
    type: frameTypeSchema,
    data: z.array(orderRecordWireSchema),
    ...envelopeTailShape,
  })
  .transform((frame): OrdersMessage => ({
    ...envelopeMeta(frame),
    channel: 'orders',
    type: frame.type,
    orders: frame.data,
  }));
export type OrdersWireFrame = Omit<z.input<typeof ordersFrameSchema>, 'data'> & {
  data: z.input<typeof orderRecordObjectSchema>[];
};
export interface OrdersMessage extends EnvelopeMeta {
  readonly channel: 'orders';
  readonly type: FrameType;
  readonly orders: readonly OrderRecord[];
}

/** size "0" means flat. */
export const positionRecordWireSchema = z.looseObject({
  market_id: marketIdSchema,
  size: decimalSchema,
  side: sideSchema.optional(),
  account: addressSchema.optional(),
  margin_mode: z.union([z.literal(0), z.literal(1), z.string()]).optional(),
  isolated_usdc_balance: decimalSchema.optional(),
  leverage: z.union([z.string(), z.number()]).transform(String).optional(),
  avg_entry_price: decimalSchema.optional(),
});
export type PositionRecord = z.output<typeof positionRecordWireSchema>;

export const positionsFrameSchema = z
  .object({
    channel: z.literal('positions'),
    type: frameTypeSchema,
    data: z.array(positionRecordWireSchema),
    ...envelopeTailShape,
  })
  .transform((frame): PositionsMessage => ({
    ...envelopeMeta(frame),
    channel: 'positions',
    type: frame.type,
    positions: frame.data,
  }));
export type PositionsWireFrame = z.input<typeof positionsFrameSchema>;
export interface PositionsMessage extends EnvelopeMeta {
  readonly channel: 'positions';
  readonly type: FrameType;
  readonly positions: readonly PositionRecord[];
}

/** One fill per message, no snapshot. `time` is nanoseconds. */
export const fillRecordWireSchema = z.looseObject({
  id: idSchema,
  market_id: marketIdSchema,
  order_id: z.string().min(1),
  side: sideSchema,
  price: decimalSchema,
  size: decimalSchema,
  fee: decimalSchema,
  time: z.union([z.string().regex(NANOS_PATTERN), nonNegativeIntSchema]).transform((t) => BigInt(t)),
  liquidity_indicator: z.enum(LIQUIDITY_INDICATORS),
  client_order_id: clientOrderIdSchema,
  realized_pnl: decimalSchema.optional(),
});
export type FillRecord = z.output<typeof fillRecordWireSchema>;

export const fillsFrameSchema = z
  .object({ channel: z.literal('fills'), type: frameTypeSchema, data: fillRecordWireSchema, ...envelopeTailShape })
  .transform((frame): FillsMessage => ({
    ...envelopeMeta(frame),
    channel: 'fills',
    type: frame.type,
    fill: frame.data,
  }));
export type FillsWireFrame = z.input<typeof fillsFrameSchema>;
export interface FillsMessage extends EnvelopeMeta {
  readonly channel: 'fills';
  readonly type: FrameType;
  readonly fill: FillRecord;
}

/** Payload unknown on the venue; chosen: `{balance, ...}` with balance a decimal (may be negative). */
export const accountRecordWireSchema = z.looseObject({
  balance: decimalSchema,
  account: addressSchema.optional(),
});
export type AccountRecord = z.output<typeof accountRecordWireSchema>;

export const accountFrameSchema = z
  .object({ channel: z.literal('account'), type: frameTypeSchema, data: accountRecordWireSchema, ...envelopeTailShape })
  .transform((frame): AccountMessage => ({
    ...envelopeMeta(frame),
    channel: 'account',
    type: frame.type,
    account: frame.data,
  }));
export type AccountWireFrame = z.input<typeof accountFrameSchema>;
export interface AccountMessage extends EnvelopeMeta {
  readonly channel: 'account';
  readonly type: FrameType;
  readonly account: AccountRecord;
}
