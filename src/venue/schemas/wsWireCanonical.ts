import { z } from 'zod';
import { NANOS_PATTERN, UINT32_MAX } from './wsFramesFields.js';

/**
 * The exact JSON the venue sends on the WebSocket, field by field and type by type, as
 * venue-wire.md §3 gives it: strict objects, one JSON type per field. The decoders
 * (`wsFrames*.ts`) are deliberately more tolerant; these are the other half of the contract. The
 * simulator's frame builders are typed against them, and tests hold the captured samples, the
 * simulator's frames and the decoders to them, so the simulator and the client cannot drift
 * apart again without a test failing.
 */

/** Canonical decimal as the venue prints it: no exponent, no sign, no trailing fraction zeros. */
const decimalText = z.string().regex(/^(?:0|[1-9]\d{0,17})(?:\.\d{0,17}[1-9])?$/, 'a canonical decimal string');
const signedDecimalText = z.string().regex(/^-?\d+(?:\.\d+)?$/, 'a decimal string');
/** A 64-bit id as protojson prints it: a decimal string. */
const int64Text = z.string().regex(/^(?:0|[1-9]\d{0,18})$/, 'an integer as a decimal string');
const uint = z.number().int().min(0);
const nanos = z.string().regex(NANOS_PATTERN, 'an integer nanosecond string');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address');

const canonicalBookLevelSchema = z.strictObject({
  price: decimalText,
  quantity: decimalText,
  order_count: uint,
});

const orderbookEnvelope = {
  channel: z.literal('orderbook'),
  /** The envelope's market id is a string; `data.market_id` is a number (captured). */
  market_id: int64Text,
  data: z.strictObject({
    market_id: uint,
    bids: z.array(canonicalBookLevelSchema),
    asks: z.array(canonicalBookLevelSchema),
  }),
  level_count: uint,
  block_number: uint,
  log_index: uint,
  worker_timestamp: nanos,
};

/** venue-wire.md §3, orderbook snapshot (captured): no checksum. */
const canonicalOrderbookSnapshotSchema = z.strictObject({
  method: z.literal('snapshot'),
  type: z.literal('snapshot'),
  ...orderbookEnvelope,
});

/**
 * venue-wire.md §3, orderbook update (live): absolute levels and the envelope `checksum`. Whether
 * updates repeat `method` and `level_count` is unknown; the simulator sends both (`method:
 * "update"`, `level_count` the levels in the frame), as the snapshot does.
 */
const canonicalOrderbookUpdateSchema = z.strictObject({
  method: z.literal('update'),
  type: z.literal('update'),
  ...orderbookEnvelope,
  checksum: z.number().int().min(0).max(UINT32_MAX),
});

export const canonicalOrderbookFrameSchema = z.discriminatedUnion('type', [
  canonicalOrderbookSnapshotSchema,
  canonicalOrderbookUpdateSchema,
]);
export type CanonicalOrderbookFrame = z.infer<typeof canonicalOrderbookFrameSchema>;
export type CanonicalBookLevel = z.infer<typeof canonicalBookLevelSchema>;

/** venue-wire.md §3, trades update (live): `maker_side` a JSON number, every amount a decimal string. */
export const canonicalTradesFrameSchema = z.strictObject({
  channel: z.literal('trades'),
  type: z.literal('update'),
  /** int-like on the venue; printed as the orderbook envelope prints it, a string. */
  market_id: int64Text,
  worker_timestamp: nanos,
  block_number: uint.optional(),
  log_index: uint.optional(),
  tx_hash: z.string().optional(),
  data: z.strictObject({
    id: z.string(),
    maker_order_id: z.string(),
    taker_order_id: z.string(),
    maker: address,
    taker: address,
    maker_side: z.union([z.literal(0), z.literal(1)]),
    price: decimalText,
    size: decimalText,
    fee_maker: signedDecimalText,
    fee_taker: signedDecimalText,
    fee_liquidation: signedDecimalText,
  }),
});
export type CanonicalTradesFrame = z.infer<typeof canonicalTradesFrameSchema>;

/** venue-wire.md §3, subscribe ack (live): the ids applied as JSON numbers. */
export const canonicalSubscribedAckSchema = z.strictObject({
  type: z.literal('subscribed'),
  method: z.literal('subscribe'),
  status: z.literal('success'),
  channel: z.string(),
  message: z.string().optional(),
  data: z.strictObject({ market_ids: z.array(uint) }),
});
export type CanonicalSubscribedAck = z.infer<typeof canonicalSubscribedAckSchema>;

/** venue-wire.md §3, subscribe refusal (live, 2026-06): the ack frame with `status: "error"`. */
export const canonicalSubscribeRefusalSchema = z.strictObject({
  type: z.literal('subscribed'),
  method: z.literal('subscribe'),
  status: z.literal('error'),
  channel: z.string(),
  message: z.string(),
});
export type CanonicalSubscribeRefusal = z.infer<typeof canonicalSubscribeRefusalSchema>;
