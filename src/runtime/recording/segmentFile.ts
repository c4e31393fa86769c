import { createWriteStream, type WriteStream } from 'node:fs';
import { constants, createGzip, type Gzip } from 'node:zlib';

/**
 * One segment being written: a single gzip stream of JSON lines, flushed (Z_SYNC_FLUSH) after the
 * records of each event-loop turn. The flush puts every record on disk as soon as the turn that
 * brought it ends, while the compressor keeps its window across records (a gzip member per record
 * would lose it and several times the size); a reader with `finishFlush: Z_SYNC_FLUSH` decodes a
 * segment cut short by a crash up to its last flushed record. Batching per turn keeps a burst of
 * frames to one zlib and one file operation instead of one each.
 */
export class SegmentFile {
  /** Compressed bytes produced so far (what the file holds once they are written). */
  bytes = 0;
  records = 0;
  private readonly gzip: Gzip;
  private readonly file: WriteStream;
  private readonly closed: Promise<void>;
  private batch: string[] = [];
  private lastFlush: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(
    readonly path: string,
    readonly startedAt: number,
    onError: (error: Error) => void,
  ) {
    // 'wx': a recording is never overwritten, even by a second recorder in the same millisecond.
    this.file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    this.gzip = createGzip();
    this.gzip.on('data', (chunk: Buffer) => (this.bytes += chunk.length));
    this.gzip.pipe(this.file);
    this.closed = new Promise((resolve, reject) => {
      this.file.once('close', resolve);
      this.file.once('error', reject);
    });
    // A failure is reported once; `close` still settles.
    this.closed.catch(onError);
    this.gzip.on('error', onError);
  }

  /** One line (no newline inside), compressed with the lines before it, flushed at the end of this turn. */
  write(line: string): void {
    if (this.ended) return;
    if (this.batch.length === 0) setImmediate(() => this.flushBatch());
    this.batch.push(line);
    this.records++;
  }

  /** Resolves once every record written so far has been compressed and handed to the file. */
  flushed(): Promise<void> {
    this.flushBatch();
    return this.lastFlush;
  }

  /** Ends the gzip stream (its trailer makes the file a complete .gz) and waits for the file to close. */
  async close(): Promise<void> {
    this.flushBatch();
    this.ended = true;
    this.gzip.end();
    await this.closed.catch(() => undefined);
  }

  private flushBatch(): void {
    if (this.batch.length === 0 || this.ended) return;
    this.gzip.write(`${this.batch.join('\n')}\n`);
    this.batch = [];
    this.lastFlush = new Promise((resolve) => this.gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  }
}
