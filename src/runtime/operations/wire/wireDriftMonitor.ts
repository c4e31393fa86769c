import { join } from 'node:path';
import { systemClock, type Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import {
  wireFailureShapeKey,
  type WireDecodeFailure,
  type WireDecodeFailureSink,
} from '../../../venue/wireDecodeFailure.js';
import { WIRE_SAMPLES_DIR, WireSampleStore, type SampleFiles } from './wireSampleStore.js';

/** One distinct departure seen so far, and how often. */
export interface WireDriftShape {
  readonly failure: WireDecodeFailure;
  readonly count: number;
  /** The redacted sample of its first occurrence, once written. */
  readonly samplePath?: string;
}

export interface WireDriftMonitor {
  /** Give it to the venue clients (`onDecodeFailure`); it never throws. */
  readonly sink: WireDecodeFailureSink;
  /** Every distinct shape seen, first seen first. */
  shapes(): WireDriftShape[];
  /** Resolves once every sample write started so far has settled (tests, the probe, shutdown). */
  flush(): Promise<void>;
}

export interface WireDriftMonitorOptions {
  readonly logger: Pick<Logger, 'warn'>;
  /** `perpbot_wire_decode_failures_total{source}` (BotMetrics.wireDecodeFailures); absent when metrics are off. */
  readonly counter?: { inc(labels: { source: string }): void };
  /** The journal's directory: samples go to `<journalDir>/wire-samples/`. */
  readonly journalDir: string;
  readonly clock?: Clock;
  readonly maxSamples?: number;
  readonly files?: SampleFiles;
}

/**
 * Where decode failures of the venue's bodies and frames go in a running bot. Each is counted by
 * source; each distinct shape (`wireFailureShapeKey`: source, field with indices folded, expected,
 * received type) is logged once at warn with a redacted sample saved, and its repeats are logged
 * again at 10, 100, 1000... so a departure that never stops stays visible without flooding the log.
 * The refused frame itself is dropped by the client: its feed goes stale, and the freshness
 * budgets make the strategies that depend on it reduce-only.
 */
export function createWireDriftMonitor(options: WireDriftMonitorOptions): WireDriftMonitor {
  const clock = options.clock ?? systemClock;
  const store = new WireSampleStore({
    dir: join(options.journalDir, WIRE_SAMPLES_DIR),
    logger: options.logger,
    clock,
    ...(options.maxSamples === undefined ? {} : { maxSamples: options.maxSamples }),
    ...(options.files === undefined ? {} : { files: options.files }),
  });
  const shapes = new Map<string, { failure: WireDecodeFailure; count: number; samplePath?: string }>();
  const pending = new Set<Promise<unknown>>();

  const record = (failure: WireDecodeFailure, raw: unknown): void => {
    options.counter?.inc({ source: failure.source });
    const key = wireFailureShapeKey(failure);
    const seen = shapes.get(key);
    if (seen !== undefined) {
      seen.count++;
      if (isPowerOfTen(seen.count)) logRepeat(options.logger, seen.failure, seen.count);
      return;
    }
    const entry: { failure: WireDecodeFailure; count: number; samplePath?: string } = { failure, count: 1 };
    shapes.set(key, entry);
    const write = store
      .save(failure, raw)
      .then((path) => {
        if (path !== undefined) entry.samplePath = path;
        logFirst(options.logger, failure, path);
      })
      // save() never rejects; a logger that throws must not become an unhandled rejection.
      .catch(() => undefined)
      .finally(() => pending.delete(write));
    pending.add(write);
  };

  return {
    sink: (failure, raw) => {
      try {
        record(failure, raw);
      } catch {
        // The sink runs inside the venue clients' frame handlers: a bug here must not stop a feed.
      }
    },
    shapes: () => [...shapes.values()].map((s) => ({ ...s })),
    flush: async () => {
      await Promise.allSettled([...pending]);
    },
  };
}

function logFirst(logger: Pick<Logger, 'warn'>, failure: WireDecodeFailure, samplePath: string | undefined): void {
  logger.warn(
    {
      source: failure.source,
      field: failure.field,
      expected: failure.expected,
      received: failure.received,
      ...(samplePath === undefined ? {} : { sample: samplePath }),
    },
    `the venue sent a ${failure.source} body the bot cannot decode (${failure.field}: expected ${failure.expected}, received ${failure.received}); it is dropped and its feed may go stale. Run perpbot probe to see every departure`,
  );
}

function logRepeat(logger: Pick<Logger, 'warn'>, failure: WireDecodeFailure, count: number): void {
  logger.warn(
    { source: failure.source, field: failure.field, expected: failure.expected, count },
    `the same undecodable ${failure.source} shape again: ${count} times so far`,
  );
}

function isPowerOfTen(n: number): boolean {
  for (let p = 10; p <= n; p *= 10) if (p === n) return true;
  return false;
}
