import { createWriteStream, type WriteStream } from 'node:fs';
import { constants, createGzip, type Gzip } from 'node:zlib';

/**
 * One segment being written: a single gzip stream of JSON lines, flushed (Z_SYNC_FLUSH) after
 * every line. The flush puts each whole record on disk as it comes while the compressor keeps its
 * window across records (one gzip member per record would lose it and triple the size), and a
 * reader with `finishFlush: Z_SYNC_FLUSH` decodes a segment cut short by a crash up to its last
 * flushed record.
 */
export class SegmentFile {
  /** Compressed bytes produced so far (what the file will hold once they are written). */
  bytes = 0;
  records = 0;
  private readonly gzip: Gzip;
  private readonly file: WriteStream;
  private readonly closed: Promise<void>;

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

  /** One line (no newline inside); on disk after the flush, compressed with the lines before it. */
  write(line: string): void {
    this.gzip.write(`${line}\n`);
    this.gzip.flush(constants.Z_SYNC_FLUSH);
    this.records++;
  }

  /** Ends the gzip stream (its trailer makes the file a complete .gz) and waits for the file to close. */
  async close(): Promise<void> {
    this.gzip.end();
    await this.closed.catch(() => undefined);
  }
}
