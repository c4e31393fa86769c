import type { BotEvent, BotRun } from '../botTimeline.js';
import { formatMs } from './formatMs.js';
import type { InvariantResult } from './invariant.js';

export interface Reconnect {
  readonly run: number;
  readonly fromMs: number;
  /** When trading resumed; undefined when the run ended first. */
  readonly toMs?: number;
}

/**
 * Every reconnect of every run, from the first `venue connection` line with status reconnecting
 * to the first `trading state` line with mode trading after the connection authenticated again,
 * i.e. re-authenticated and reconciled.
 */
export function reconnectsOf(events: readonly BotEvent[], runs: readonly BotRun[]): Reconnect[] {
  const reconnects: Reconnect[] = [];
  for (const run of runs) {
    let from: number | undefined;
    let authenticated = false;
    for (const e of events) {
      if (e.run !== run.run) continue;
      if (e.type === 'connection' && e.status === 'reconnecting' && from === undefined) {
        from = e.atMs;
        authenticated = false;
      } else if (e.type === 'connection' && e.status === 'authenticated' && from !== undefined) {
        authenticated = true;
      } else if (e.type === 'trading' && e.mode === 'trading' && from !== undefined && authenticated) {
        reconnects.push({ run: run.run, fromMs: from, toMs: e.atMs });
        from = undefined;
      }
    }
    if (from !== undefined) reconnects.push({ run: run.run, fromMs: from });
  }
  return reconnects;
}

/**
 * Reconnects end in trading again, each within `maxReconnectMs` of its disconnect (the goal: under
 * 2 s); p50 and max are reported. A reconnect the end of its run cut short (the crash, the final
 * stop) is counted apart, and fails only if it had already lasted the engine's outage limit
 * (`degraded.max_outage_ms`).
 */
export function reconnectTime(
  events: readonly BotEvent[],
  runs: readonly BotRun[],
  limits: { readonly maxReconnectMs: number; readonly maxOutageMs: number },
  nowMs: number,
): InvariantResult {
  const all = reconnectsOf(events, runs);
  const done = all
    .filter((r) => r.toMs !== undefined)
    .map((r) => (r.toMs ?? 0) - r.fromMs)
    .sort((a, b) => a - b);
  const cut = all.filter((r) => r.toMs === undefined);
  const endOf = (run: number): number => runs.find((r) => r.run === run)?.endedAtMs ?? nowMs;
  const stuck = cut.filter((r) => endOf(r.run) - r.fromMs >= limits.maxOutageMs);
  const p50 = done.length === 0 ? 0 : (done[Math.floor((done.length - 1) / 2)] ?? 0);
  const max = done.length === 0 ? 0 : (done[done.length - 1] ?? 0);
  const ok = max < limits.maxReconnectMs && stuck.length === 0;
  const problems = [
    ...(max >= limits.maxReconnectMs
      ? [
          `the longest reconnect took ${formatMs(max)}, at or past ${formatMs(limits.maxReconnectMs)} (--max-reconnect-ms)`,
        ]
      : []),
    ...stuck.map((r) => `run ${r.run} reconnecting since ${new Date(r.fromMs).toISOString()} never resumed trading`),
  ];
  return {
    id: 'reconnect_time',
    title: 'reconnect to trading again',
    ok,
    measured:
      done.length === 0
        ? `none of ${all.length} completed`
        : `${done.length} done, p50 ${formatMs(p50)}, max ${formatMs(max)} (limit ${formatMs(limits.maxReconnectMs)})`,
    ...(ok ? {} : { detail: problems.join('; ') }),
    data: {
      reconnects: all.length,
      completed: done.length,
      cutByExit: cut.length,
      p50Ms: p50,
      maxMs: max,
      maxReconnectMs: limits.maxReconnectMs,
      maxOutageMs: limits.maxOutageMs,
    },
  };
}
