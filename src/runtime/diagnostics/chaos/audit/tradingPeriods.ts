import type { BotEvent, BotRun } from '../botTimeline.js';

/** A stretch of one bot run in a mode other than `trading`, from the bot's `trading state` lines. */
export interface DegradedPeriod {
  readonly run: number;
  readonly fromMs: number;
  readonly toMs: number;
  /** Still degraded when the run ended (the crash, the stop or an exit). */
  readonly cutByExit: boolean;
  readonly reasons: readonly string[];
}

/**
 * The degraded periods of every run: each begins at the first `trading state` line with mode
 * degraded and ends at the next one with mode trading, or at the end of the run.
 */
export function degradedPeriodsOf(
  events: readonly BotEvent[],
  runs: readonly BotRun[],
  nowMs: number,
): DegradedPeriod[] {
  const periods: DegradedPeriod[] = [];
  for (const run of runs) {
    const endMs = run.endedAtMs ?? nowMs;
    let open: { fromMs: number; reasons: string[] } | undefined;
    for (const e of events) {
      if (e.run !== run.run || e.type !== 'trading') continue;
      if (e.mode === 'degraded' && open === undefined) open = { fromMs: e.atMs, reasons: [...e.reasons] };
      else if (e.mode === 'degraded' && open !== undefined)
        open.reasons.push(...e.reasons.filter((r) => !open!.reasons.includes(r)));
      else if (e.mode === 'trading' && open !== undefined) {
        periods.push({ run: run.run, fromMs: open.fromMs, toMs: e.atMs, cutByExit: false, reasons: open.reasons });
        open = undefined;
      }
    }
    if (open !== undefined)
      periods.push({ run: run.run, fromMs: open.fromMs, toMs: endMs, cutByExit: true, reasons: open.reasons });
  }
  return periods;
}
