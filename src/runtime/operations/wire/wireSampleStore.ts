import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { redactValue } from '../../../core/redactor.js';
import { wireFailureShapeKey, type WireDecodeFailure } from '../../../venue/wireDecodeFailure.js';

/** The directory under the journal's where samples go. */
export const WIRE_SAMPLES_DIR = 'wire-samples';
/** Samples one process keeps at most: a venue that changed everything must not fill the disk. */
export const DEFAULT_MAX_WIRE_SAMPLES = 50;

/** The file system calls the store makes (tests pass failing ones). */
export interface SampleFiles {
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { mode: number; flag: string }): Promise<void>;
}

const NODE_FILES: SampleFiles = { mkdir, writeFile };

export interface WireSampleStoreOptions {
  /** Where the files go, e.g. `<journal dir>/wire-samples`; created 0700 on the first sample. */
  readonly dir: string;
  readonly logger: Pick<Logger, 'warn'>;
  readonly clock: Clock;
  readonly maxSamples?: number;
  readonly files?: SampleFiles;
}

/**
 * Redacted copies of bodies and frames the decoders refused, one file per call, for a person to
 * see what the venue really sent. Files are readable by the owner only (0600) and capped in
 * number; a write that fails (disk full, read-only directory) is logged once and never thrown,
 * because a sample is evidence, not a reason to stop trading.
 */
export class WireSampleStore {
  private saved = 0;
  private writeFailed = false;
  private readonly max: number;
  private readonly files: SampleFiles;

  constructor(private readonly options: WireSampleStoreOptions) {
    this.max = options.maxSamples ?? DEFAULT_MAX_WIRE_SAMPLES;
    this.files = options.files ?? NODE_FILES;
  }

  /** The path written, or undefined when the cap is reached or the write failed. Never rejects. */
  async save(failure: WireDecodeFailure, raw: unknown): Promise<string | undefined> {
    if (this.saved >= this.max) return undefined;
    this.saved++;
    const nowMs = this.options.clock.now();
    const path = join(this.options.dir, sampleFileName(failure, nowMs));
    const sample = {
      savedAt: new Date(nowMs).toISOString(),
      source: failure.source,
      field: failure.field,
      expected: failure.expected,
      received: failure.received,
      raw: redactedRaw(raw),
    };
    try {
      await this.files.mkdir(this.options.dir, { recursive: true, mode: 0o700 });
      await this.files.writeFile(path, `${JSON.stringify(sample, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      return path;
    } catch (error) {
      this.reportWriteFailure(error);
      return undefined;
    }
  }

  private reportWriteFailure(error: unknown): void {
    if (this.writeFailed) return;
    this.writeFailed = true;
    this.options.logger.warn(
      { err: error instanceof Error ? error.message : String(error), dir: this.options.dir },
      'could not save a sample of a venue body the decoders refused; further samples may be lost too (check the disk and the directory)',
    );
  }
}

/** `<utc time>-<source>-<8 hex of the shape>.json`, safe on every file system. */
export function sampleFileName(failure: WireDecodeFailure, nowMs: number): string {
  const time = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  const source = failure.source
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  const hash = createHash('sha256').update(wireFailureShapeKey(failure)).digest('hex').slice(0, 8);
  return `${time}-${source}-${hash}.json`;
}

/** The raw body as JSON when it is JSON text, redacted by field name and by held value either way. */
function redactedRaw(raw: unknown): unknown {
  if (typeof raw === 'string') {
    try {
      return redactValue(JSON.parse(raw));
    } catch {
      return redactValue(raw);
    }
  }
  if (raw instanceof Uint8Array) return redactedRaw(Buffer.from(raw).toString('utf8'));
  return redactValue(raw);
}
