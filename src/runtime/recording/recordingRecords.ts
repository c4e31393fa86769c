import { z } from 'zod';

/**
 * The records of a perpbot recording, one JSON object per line. The format lives here and only
 * here: the writer, the reader, replay and paper trading all take these types.
 *
 * - `header`: the first line of every segment (format version, run, venue, markets, channels), so a
 *   segment read on its own still says what it is.
 * - `frame`: one WebSocket text frame exactly as received (`raw`, redacted only where it holds a
 *   secret this process holds), its receive time `t` (ms, from the injected clock) and its source.
 * - `connected` / `gap`: a connection opened / was lost; frames between a gap and the next
 *   `connected` were never seen, so replay knows the book must be rebuilt from the next snapshot.
 *
 * A running bot's flight recorder (`recorder.enabled`) adds, all from the bot's own point of view:
 * - `connection`: every state its WebSocket client reported (open, authenticated, reconnecting...).
 * - `rest`: one REST exchange: method, path and query, the request body as sent (signatures kept),
 *   the HTTP status and the answer body as received (`status` 0 and `failure` when none came);
 *   `t` is when the answer came, `sentAt` when the request left.
 * - `intent`: what a strategy submitted, as it submitted it (bigints as decimal strings).
 * - `outcome` / `order`: the engine's outcome of an intent and its order events (`engine.orderEvents$`).
 * - `admitted`: the engine's admission let an action through (its rate-limit token taken), at `t`.
 * - `marker`: a step of the bot's life a replay must take at the same time (the strategies started).
 * These types are additive: a reader of this version reads a public recording as before.
 */
export const RECORDING_FORMAT_VERSION = 1;

/** Where a frame came from: `public` (`perpbot record`'s connection) or `bot` (a running bot's one connection). */
export type RecordSource = string;

const sourceSchema = z.string().min(1);

export const headerRecordSchema = z.object({
  type: z.literal('header'),
  version: z.literal(RECORDING_FORMAT_VERSION),
  /** The run this segment belongs to (segments of one `perpbot record` share it). */
  run: z.string().min(1),
  /** 1 for the run's first segment, then one more per rotation. */
  segment: z.number().int().positive(),
  startedAt: z.number().int().nonnegative(),
  venue: z.object({ profile: z.string(), restUrl: z.string(), wsUrl: z.string() }),
  markets: z.array(z.number().int().nonnegative()),
  channels: z.array(z.string()),
  /**
   * A flight recording's account and signer (addresses: what a replay's engine acts as) and the
   * bot's run id (its strategies' intent ids carry it).
   */
  flight: z.object({ account: z.string(), signer: z.string(), runId: z.string() }).optional(),
});

export const frameRecordSchema = z.object({
  type: z.literal('frame'),
  t: z.number().int().nonnegative(),
  src: sourceSchema,
  raw: z.string(),
});

export const connectedRecordSchema = z.object({
  type: z.literal('connected'),
  t: z.number().int().nonnegative(),
  src: sourceSchema,
  /** 1 for the first connection of the run, then one more per reconnect. */
  connection: z.number().int().positive(),
});

export const gapRecordSchema = z.object({
  type: z.literal('gap'),
  t: z.number().int().nonnegative(),
  src: sourceSchema,
  reason: z.string(),
});

export const connectionRecordSchema = z.object({
  type: z.literal('connection'),
  t: z.number().int().nonnegative(),
  src: sourceSchema,
  status: z.enum(['connecting', 'open', 'authenticated', 'reconnecting', 'closed']),
  reason: z.string().optional(),
  connections: z.number().int().nonnegative(),
});

export const restRecordSchema = z.object({
  type: z.literal('rest'),
  t: z.number().int().nonnegative(),
  sentAt: z.number().int().nonnegative(),
  method: z.enum(['GET', 'POST']),
  /** Path and query, e.g. "/v1/open-orders?account=0x..". */
  path: z.string().min(1),
  /** The request body as JSON text; absent for a GET. */
  body: z.string().optional(),
  /** 0: no answer came (see `failure`). */
  status: z.number().int().nonnegative(),
  answer: z.string(),
  failure: z.enum(['Timeout', 'Aborted', 'ConnectionFailed']).optional(),
});

/** Intents, outcomes and order events are JSON objects as the engine made them (bigints as strings). */
const engineObject = z.record(z.string(), z.unknown());

/**
 * An intent as a strategy handed it over; with `origin: "engine"`, one the engine made itself
 * (a quote target's place, replace or cancel; a replacement's cancel), recorded when it ran.
 */
export const intentRecordSchema = z.object({
  type: z.literal('intent'),
  t: z.number().int().nonnegative(),
  intent: engineObject,
  origin: z.literal('engine').optional(),
});
export const outcomeRecordSchema = z.object({
  type: z.literal('outcome'),
  t: z.number().int().nonnegative(),
  outcome: engineObject,
});
export const orderRecordSchema = z.object({
  type: z.literal('order'),
  t: z.number().int().nonnegative(),
  event: engineObject,
});

/**
 * An action (a placement, a cancel, any signed action) the engine's admission let through; `t` is
 * the time its rate limit counted it at, where its order events and its request come later.
 */
export const admittedRecordSchema = z.object({
  type: z.literal('admitted'),
  t: z.number().int().nonnegative(),
  intentId: z.string().min(1),
});

/** `strategies_started`: the strategies were started (a replay starts them at the same time). */
export const markerRecordSchema = z.object({
  type: z.literal('marker'),
  t: z.number().int().nonnegative(),
  marker: z.enum(['strategies_started', 'stopping']),
});

export const recordingRecordSchema = z.discriminatedUnion('type', [
  headerRecordSchema,
  frameRecordSchema,
  connectedRecordSchema,
  gapRecordSchema,
  connectionRecordSchema,
  restRecordSchema,
  intentRecordSchema,
  outcomeRecordSchema,
  orderRecordSchema,
  admittedRecordSchema,
  markerRecordSchema,
]);

export type HeaderRecord = z.infer<typeof headerRecordSchema>;
export type FrameRecord = z.infer<typeof frameRecordSchema>;
export type ConnectedRecord = z.infer<typeof connectedRecordSchema>;
export type GapRecord = z.infer<typeof gapRecordSchema>;
export type ConnectionRecord = z.infer<typeof connectionRecordSchema>;
export type RestRecord = z.infer<typeof restRecordSchema>;
export type MarkerRecord = z.infer<typeof markerRecordSchema>;
export type RecordingRecord = z.infer<typeof recordingRecordSchema>;

/** What a header says beyond the run bookkeeping the writer fills in. */
export type RecordingDescription = Pick<HeaderRecord, 'venue' | 'markets' | 'channels'> &
  Partial<Pick<HeaderRecord, 'flight'>>;
