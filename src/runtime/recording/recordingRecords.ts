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
 */
export const RECORDING_FORMAT_VERSION = 1;

/** Where a frame came from: the public feed connection (the flight recorder will add its own sources). */
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

export const recordingRecordSchema = z.discriminatedUnion('type', [
  headerRecordSchema,
  frameRecordSchema,
  connectedRecordSchema,
  gapRecordSchema,
]);

export type HeaderRecord = z.infer<typeof headerRecordSchema>;
export type FrameRecord = z.infer<typeof frameRecordSchema>;
export type ConnectedRecord = z.infer<typeof connectedRecordSchema>;
export type GapRecord = z.infer<typeof gapRecordSchema>;
export type RecordingRecord = z.infer<typeof recordingRecordSchema>;

/** What a header says beyond the run bookkeeping the writer fills in. */
export type RecordingDescription = Pick<HeaderRecord, 'venue' | 'markets' | 'channels'>;
