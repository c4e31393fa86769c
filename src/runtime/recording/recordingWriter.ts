import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import { redactRecordingText, redactText, redactValue } from '../../core/redactor.js';
import { RecordingError } from './recordingError.js';
import { enforceRecordingBudget } from './recordingBudget.js';
import {
  RECORDING_FORMAT_VERSION,
  type ConnectionRecord,
  type HeaderRecord,
  type MarkerRecord,
  type RecordingDescription,
  type RecordingRecord,
  type RecordSource,
  type RestRecord,
} from './recordingRecords.js';
import { SegmentFile } from './segmentFile.js';
import { segmentFileName } from './segmentFiles.js';

/**
 * Room kept for the segment being written: its size, and a quarter more, since the compressed size
 * is known only as zlib hands data back and a segment rotates a few records past its limit.
 */
export function segmentReserve(segmentBytes: number): number {
  return Math.ceil(segmentBytes * 1.25);
}

export interface RecordingLimits {
  /** Rotate once a segment holds this many compressed bytes. */
  readonly segmentBytes: number;
  /** Rotate once a segment is this old. */
  readonly segmentMs: number;
  /** The most every segment in the directory (this run's and earlier ones) may take together. */
  readonly maxDiskBytes: number;
}

/** A segment that was closed: where, how big, how many records. */
export interface ClosedSegment {
  readonly path: string;
  readonly bytes: number;
  readonly records: number;
}

export interface RecordingWriterOptions {
  readonly dir: string;
  readonly clock: Clock;
  readonly description: RecordingDescription;
  readonly limits: RecordingLimits;
  /** After a rotation: the segment closed and the one now written. */
  readonly onRotate?: (closed: ClosedSegment, next: string) => void;
  /** Old segments deleted to stay within the budget. */
  readonly onDeleted?: (paths: readonly string[]) => void;
  /** A write or a deletion failed (disk full, directory gone): the recording is no longer complete. */
  readonly onError?: (error: Error) => void;
}

/** A REST exchange as the venue layer reports it (`RestExchangeObserver`), before redaction. */
export type RestExchangeRecord = Omit<RestRecord, 'type' | 't'>;

/**
 * Writes a recording: every record through the recording redactor (`redactRecordingText`: keys,
 * tokens and credentials this process holds are replaced; signatures, ids and hashes stay), one
 * JSON line each, into gzip segments rotated by size and age, each starting with a header. Before
 * a segment is opened the oldest segments are deleted so that the directory, with the new segment
 * at its full size, stays within the budget. Writes are synchronous calls in arrival order; the
 * file work runs behind them.
 */
export class RecordingWriter {
  private segment: SegmentFile | undefined;
  private segmentNumber = 0;
  /** Frames written so far, for the summary line. */
  framesWritten = 0;
  private readonly run: string;
  /** Closing and budget work, in order; `close()` waits for it. */
  private background: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private closing = false;

  private constructor(private readonly options: RecordingWriterOptions) {
    this.run = new Date(options.clock.now()).toISOString();
  }

  /** Creates the directory, makes room within the budget, and opens the first segment. */
  static async open(options: RecordingWriterOptions): Promise<RecordingWriter> {
    const { segmentBytes, maxDiskBytes } = options.limits;
    if (segmentReserve(segmentBytes) > maxDiskBytes) {
      throw new RecordingError(
        `segment size ${segmentBytes} bytes (with its margin, ${segmentReserve(segmentBytes)}) is larger than the disk budget ${maxDiskBytes}`,
        {
          details: { segmentBytes, maxDiskBytes },
          hints: ['set recorder.segment_mb to at most 80 % of recorder.max_disk_mb'],
        },
      );
    }
    await mkdir(options.dir, { recursive: true, mode: 0o700 });
    const writer = new RecordingWriter(options);
    await writer.makeRoom(undefined);
    writer.openSegment();
    return writer;
  }

  /** Segments opened by this writer. */
  get segments(): number {
    return this.segmentNumber;
  }

  /** The segment being written. */
  get currentPath(): string | undefined {
    return this.segment?.path;
  }

  frame(src: RecordSource, raw: string): void {
    this.write(() => {
      const record: RecordingRecord = {
        type: 'frame',
        t: this.options.clock.now(),
        src,
        raw: redactRecordingText(raw),
      };
      this.framesWritten++;
      return record;
    });
  }

  /** A state the bot's WebSocket client reported. */
  connection(src: RecordSource, state: Omit<ConnectionRecord, 'type' | 't' | 'src'>): void {
    this.write(() => {
      const reason = state.reason === undefined ? {} : { reason: redactRecordingText(state.reason) };
      return { type: 'connection', t: this.options.clock.now(), src, ...state, ...reason };
    });
  }

  /**
   * One REST exchange, written when its answer came (or failed to). The request's signatures are
   * kept only when the venue answered it for good (see `venueSettled`): a permit sent into a
   * timeout, a dropped connection, a 429 or a 5xx may never have been executed and stays valid
   * until its deadline, so the recording must not hold it.
   */
  rest(exchange: RestExchangeRecord): void {
    this.write(() => {
      const redactBody = venueSettled(exchange.status) ? redactRecordingText : redactUnsettledRequest;
      const body = exchange.body === undefined ? {} : { body: redactBody(exchange.body) };
      return {
        ...exchange,
        type: 'rest',
        t: this.options.clock.now(),
        path: redactRecordingText(exchange.path),
        ...body,
        answer: redactRecordingText(exchange.answer),
      };
    });
  }

  /** An intent a strategy submitted, an outcome or an order event of the engine (plain data; bigints as strings). */
  engineRecord(type: 'intent' | 'outcome' | 'order', value: object, origin?: 'engine'): void {
    this.write(() => {
      const json = JSON.parse(redactRecordingText(JSON.stringify(value, bigintAsString))) as Record<string, unknown>;
      const t = this.options.clock.now();
      if (type === 'intent')
        return origin === undefined ? { type, t, intent: json } : { type, t, intent: json, origin };
      if (type === 'outcome') return { type, t, outcome: json };
      return { type, t, event: json };
    });
  }

  /** An action the engine admitted, at the time its admission counted it (the engine's clock). */
  admitted(intentId: string, atMs: number): void {
    this.write(() => ({ type: 'admitted', t: atMs, intentId: redactRecordingText(intentId) }));
  }

  marker(marker: MarkerRecord['marker']): void {
    this.write(() => ({ type: 'marker', t: this.options.clock.now(), marker }));
  }

  connected(src: RecordSource, connection: number): void {
    this.write(() => ({ type: 'connected', t: this.options.clock.now(), src, connection }));
  }

  gap(src: RecordSource, reason: string): void {
    this.write(() => ({ type: 'gap', t: this.options.clock.now(), src, reason: redactRecordingText(reason) }));
  }

  /** Resolves once every record so far is compressed and handed to the file (and any rotation is done). */
  async flushed(): Promise<void> {
    await this.segment?.flushed();
    await this.background;
  }

  /**
   * Closes the last segment properly (a complete .gz) and waits for every file operation; rejects
   * with the failure that ended the recording, if one did.
   */
  async close(): Promise<void> {
    if (this.closing) return this.background;
    this.closing = true;
    const last = this.segment;
    this.segment = undefined;
    if (last !== undefined) this.background = this.background.then(() => last.close());
    await this.background;
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * One record, built and written; whatever fails on the way (a record that cannot be redacted or
   * serialised, a segment that cannot be opened) ends the recording through `fail`, never the
   * caller: a bot's run must not stop because its recording did.
   */
  private write(build: () => RecordingRecord): void {
    if (this.closing || this.failure !== undefined) return;
    try {
      const line = JSON.stringify(build());
      this.rotateIfDue();
      this.segment?.write(line);
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private rotateIfDue(): void {
    const current = this.segment;
    if (current === undefined || current.records <= 1) return;
    const { segmentBytes, segmentMs } = this.options.limits;
    if (current.bytes < segmentBytes && this.options.clock.now() - current.startedAt < segmentMs) return;
    this.openSegment();
    const next = this.segment;
    this.background = this.background.then(async () => {
      await current.close();
      this.options.onRotate?.({ path: current.path, bytes: current.bytes, records: current.records }, next?.path ?? '');
      await this.makeRoom(next?.path);
    });
  }

  private openSegment(): void {
    const startedAt = this.options.clock.now();
    this.segmentNumber++;
    const path = join(this.options.dir, segmentFileName(startedAt, this.segmentNumber));
    this.segment = new SegmentFile(path, startedAt, (error) => this.fail(error));
    const header: HeaderRecord = {
      type: 'header',
      version: RECORDING_FORMAT_VERSION,
      run: this.run,
      segment: this.segmentNumber,
      startedAt,
      ...this.options.description,
    };
    this.segment.write(redactRecordingText(JSON.stringify(header)));
  }

  private async makeRoom(keep: string | undefined): Promise<void> {
    try {
      const deleted = await enforceRecordingBudget({
        dir: this.options.dir,
        maxBytes: this.options.limits.maxDiskBytes,
        reserveBytes: segmentReserve(this.options.limits.segmentBytes),
        ...(keep === undefined ? {} : { keep }),
      });
      if (deleted.length > 0) this.options.onDeleted?.(deleted);
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The recording ends here: said once, and the segment closed so what it holds stays readable. */
  private fail(error: Error): void {
    if (this.failure !== undefined) return;
    this.failure = new RecordingError(`the recording in ${this.options.dir} failed: ${error.message}`, {
      cause: error,
      hints: ['check that the directory exists, is writable and the disk has room (recorder.max_disk_mb)'],
    });
    const last = this.segment;
    this.segment = undefined;
    if (last !== undefined) this.background = this.background.then(() => last.close());
    this.options.onError?.(this.failure);
  }
}

/** The venue took the request and answered for good: 2xx, or a 4xx refusal other than 408 and 429. */
function venueSettled(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 408 && status !== 429);
}

/** A request body with its signature-named members (and every held secret) redacted, as a log line would be. */
function redactUnsettledRequest(body: string): string {
  try {
    return redactRecordingText(JSON.stringify(redactValue(JSON.parse(body))));
  } catch {
    return redactText(body);
  }
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
