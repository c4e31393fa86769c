import type { BotEvent, BotRun } from '../botTimeline.js';
import { formatMs } from './formatMs.js';
import type { InvariantResult } from './invariant.js';
import { degradedPeriodsOf } from './tradingPeriods.js';

/**
 * Degraded periods are expected under faults (a dropped connection pauses new orders until the
 * reconnect is reconciled), but each must end well before the engine's own outage limit
 * (`degraded.max_outage_ms`), beyond which it trips the kill switch.
 */
export function degradedPeriods(
  events: readonly BotEvent[],
  runs: readonly BotRun[],
  maxOutageMs: number,
  nowMs: number,
): InvariantResult {
  const periods = degradedPeriodsOf(events, runs, nowMs);
  const lengths = periods.map((p) => p.toMs - p.fromMs);
  const longest = lengths.length === 0 ? 0 : Math.max(...lengths);
  const longestPeriod = periods[lengths.indexOf(longest)];
  const ok = longest < maxOutageMs;
  return {
    id: 'degraded_periods',
    title: 'degraded periods',
    ok,
    measured: `${periods.length}, longest ${formatMs(longest)}`,
    ...(ok || longestPeriod === undefined
      ? {}
      : {
          detail: `run ${longestPeriod.run} was degraded for ${formatMs(longest)}, at or past degraded.max_outage_ms (${formatMs(maxOutageMs)}): ${longestPeriod.reasons.join('; ')}`,
        }),
    data: {
      count: periods.length,
      longestMs: longest,
      totalMs: lengths.reduce((a, b) => a + b, 0),
      maxOutageMs,
      periods: periods.map((p) => ({
        run: p.run,
        fromMs: p.fromMs,
        durationMs: p.toMs - p.fromMs,
        cutByExit: p.cutByExit,
        reasons: p.reasons,
      })),
    },
  };
}
