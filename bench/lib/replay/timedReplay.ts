import { performance } from 'node:perf_hooks';
import type { Config } from '../../../src/runtime/config/configSchema.js';
import { createLogger } from '../../../src/runtime/operations/logging/createLogger.js';
import { replayRecording } from '../../../src/runtime/replay/replayRecording.js';
import type { ReplayReport } from '../../../src/runtime/replay/replayReport.js';
import type { HostedStrategy } from '../../../src/strategy/strategyHost.js';

/** One replay as the bench runs it, and what it cost. */
export interface TimedReplay {
  readonly report: ReplayReport;
  readonly failures: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** The recording's span (its last frame's time less its first's). */
  readonly spanMs: number;
}

/**
 * A recording replayed through the real engine with the bench's settings (no latency, fees 2/5 bps,
 * 100,000 USDC, silent log), timed on the wall clock and in CPU: the `replay` figure and
 * `bench/profileReplay.ts` measure the same run.
 */
export async function timedReplay(
  path: string,
  config: Config,
  hosted: readonly HostedStrategy[],
): Promise<TimedReplay> {
  let failures = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const report = await replayRecording({
    path,
    config,
    hosted,
    latencyMs: 0,
    makerFeeBps: 2,
    takerFeeBps: 5,
    balance: '100000',
    sampleMs: 1_000,
    log: createLogger({ level: 'silent', pretty: false, destination: process.stderr }),
    onError: () => void failures++,
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const spanMs = report.recording.endMs - report.recording.startMs;
  return { report, failures, wallMs, cpuMs: (used.user + used.system) / 1_000, spanMs };
}
