import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { printable } from '../../core/printable.js';
import { MAX_VENUE_FRAME_BYTES } from '../../venue/ws/maxFrameBytes.js';
import { pipeline, type TransformOptions } from 'node:stream';
import { constants, createGunzip, type ZlibOptions } from 'node:zlib';
import { RecordingError } from './recordingError.js';
import { recordingRecordSchema, type FrameRecord, type RecordingRecord } from './recordingRecords.js';
import { listSegments } from './segmentFiles.js';

/**
 * A recording is read as untrusted input: a line longer than any record the recorder writes (a
 * frame is at most 4 MiB, MAX_VENUE_FRAME_BYTES, and JSON escaping of its quotes and backslashes at
 * most doubles it) or a segment that inflates far past what recorded JSON lines compress to (a
 * gzip bomb) is refused with its path, before it can take the memory or the hours.
 */
export const RECORDING_LIMITS = {
  maxLineChars: 2 * MAX_VENUE_FRAME_BYTES + 64 * 1024,
  /** Inflated bytes per compressed byte of a segment: a recording of the simulator's books is about 8. */
  maxInflationRatio: 50,
  /** A small segment may always inflate to this much. */
  minInflatedBytes: 64 * 1024 * 1024,
} as const;

export interface ReadRecordingOptions {
  /** Stops the reading (a SIGTERM): the reader throws `RECORDING_STOPPED` at the next chunk or line. */
  readonly signal?: AbortSignal;
  /** Default RECORDING_LIMITS. */
  readonly limits?: Partial<typeof RECORDING_LIMITS>;
}

/**
 * The records of a recording in the order they were written: `path` is a directory of segments
 * (read oldest first) or one segment file. Streamed: a segment is never held in memory whole.
 */
export async function* readRecording(
  path: string,
  options: ReadRecordingOptions = {},
): AsyncGenerator<RecordingRecord> {
  for await (const records of readRecordingChunks(path, options)) {
    for (const record of records) {
      yield record;
      stopIfAborted(options.signal, path);
    }
  }
}

/**
 * `readRecording` a chunk at a time: the records of each piece of a segment as it is inflated (a
 * few hundred), in order. For a reader that takes many records at once (a replay), where a
 * generator's turn per record was a cost of its own.
 */
export async function* readRecordingChunks(
  path: string,
  options: ReadRecordingOptions = {},
): AsyncGenerator<readonly RecordingRecord[]> {
  const segments = (await stat(path)).isDirectory() ? (await listSegments(path)).map((s) => s.path) : [path];
  for (const segment of segments) yield* readSegmentChunks(segment, options);
}

/**
 * The records of one segment. A segment cut short (the recorder was killed, the disk filled) reads
 * up to its last whole record: the gzip stream is decoded as far as it was flushed and a last line
 * without its newline is dropped. A line that is whole but not a record is an error naming it.
 */
export async function* readSegment(path: string, read: ReadRecordingOptions = {}): AsyncGenerator<RecordingRecord> {
  for await (const records of readSegmentChunks(path, read)) {
    for (const record of records) {
      yield record;
      stopIfAborted(read.signal, path);
    }
  }
}

/**
 * `readSegment` a chunk at a time. The records before a line that is not one come first, then
 * its error.
 */
async function* readSegmentChunks(
  path: string,
  read: ReadRecordingOptions,
): AsyncGenerator<readonly RecordingRecord[]> {
  // Z_SYNC_FLUSH at the end: a stream without its trailer is decoded as far as it goes, not refused.
  // Read and inflated a few MB ahead (on the thread pool): with the default 16 KB a replay waited
  // for the next chunk about 8% of its time.
  const options: ZlibOptions & TransformOptions = {
    finishFlush: constants.Z_SYNC_FLUSH,
    chunkSize: 256 * 1024,
    highWaterMark: READ_AHEAD,
  };
  const lines = createGunzip(options);
  // pipeline() passes a read error on to `lines` (whose reader then throws it) and listens for it
  // on both streams at once: a file gone before its open would otherwise raise an 'error' with no
  // listener, an uncaught exception, while the reader is still waiting for its size.
  pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), lines, ignore);
  const limits = { ...RECORDING_LIMITS, ...read.limits };
  let inflated = 0;
  let pending = '';
  let lineNumber = 0;
  try {
    const maxInflated = Math.max(limits.minInflatedBytes, (await stat(path)).size * limits.maxInflationRatio);
    for await (const chunk of lines as AsyncIterable<Buffer>) {
      stopIfAborted(read.signal, path);
      inflated += chunk.length;
      if (inflated > maxInflated) throw bombError(path, maxInflated, limits.maxInflationRatio);
      pending += chunk.toString('utf8');
      const records: RecordingRecord[] = [];
      let start = 0;
      let end = pending.indexOf('\n');
      try {
        while (end >= 0) {
          lineNumber++;
          records.push(parseRecord(pending.slice(start, end), path, lineNumber));
          start = end + 1;
          end = pending.indexOf('\n', start);
        }
      } catch (error) {
        if (records.length > 0) yield records;
        throw error;
      }
      pending = pending.slice(start);
      if (records.length > 0) yield records;
      if (pending.length > limits.maxLineChars)
        throw formatError(path, lineNumber + 1, `longer than ${limits.maxLineChars} characters`);
    }
  } catch (error) {
    lines.destroy();
    // Cut short inside the gzip header or a block: what was whole has been read.
    if (isTruncation(error)) return;
    if (error instanceof RecordingError) throw error;
    throw new RecordingError(`${path} is not a readable recording segment: ${(error as Error).message}`, {
      code: 'RECORDING_FORMAT',
      cause: error,
      details: { path, line: lineNumber },
      hints: ['a segment is a gzip file of JSON lines written by `perpbot record`; is this one damaged?'],
    });
  }
}

/** The reader meets the pipeline's error itself, on `lines`. */
function ignore(): void {}

/** Inflated bytes buffered ahead of the reader. */
const READ_AHEAD = 4 * 1024 * 1024;

function parseRecord(line: string, path: string, lineNumber: number): RecordingRecord {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    // V8's message quotes the line: short, and never a raw control character.
    throw formatError(path, lineNumber, `not JSON (${printable((error as Error).message.slice(0, 120))})`);
  }
  const frame = wellFormedFrame(json);
  if (frame !== undefined) return frame;
  const parsed = recordingRecordSchema.safeParse(json);
  if (!parsed.success) throw formatError(path, lineNumber, parsed.error.issues[0]?.message ?? 'not a record');
  return parsed.data;
}

/**
 * A frame record (nearly every line) checked by hand as `frameRecordSchema` checks it, and built
 * as it builds it; anything else, or a frame that departs, goes to the schema (and its error).
 */
function wellFormedFrame(json: unknown): FrameRecord | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { type, t, src, raw } = json as Record<string, unknown>;
  if (type !== 'frame' || typeof raw !== 'string' || typeof src !== 'string' || src.length === 0) return undefined;
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) return undefined;
  return { type, t, src, raw };
}

function formatError(path: string, line: number, why: string): RecordingError {
  return new RecordingError(`${path} line ${line} is not a recording record: ${why}`, {
    code: 'RECORDING_FORMAT',
    details: { path, line },
    hints: ['read it with the perpbot version that wrote it (the header says the format version)'],
  });
}

function stopIfAborted(signal: AbortSignal | undefined, path: string): void {
  if (signal?.aborted !== true) return;
  throw new RecordingError(
    `reading ${path} stopped: ${printable(String((signal.reason as Error | undefined)?.message ?? 'aborted'))}`,
    {
      code: 'RECORDING_STOPPED',
      details: { path },
    },
  );
}

function bombError(path: string, maxBytes: number, ratio: number): RecordingError {
  return new RecordingError(
    `${path} inflates past ${maxBytes} bytes (more than ${ratio} times its size): not a recording segment, refused`,
    {
      code: 'RECORDING_FORMAT',
      details: { path, maxBytes },
      hints: [
        'a segment written by `perpbot record` compresses JSON lines about 5 to 20 to 1; is this file what it claims?',
      ],
    },
  );
}

function isTruncation(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'Z_BUF_ERROR';
}
