import type { BotEvent, BotRun } from '../../../../../src/runtime/diagnostics/chaos/botTimeline.js';

/** Bot events of one run at the given seconds, for the timeline invariants. */
export function connection(atS: number, status: string, run = 1): BotEvent {
  return { type: 'connection', run, atMs: atS * 1000, status };
}

export function mode(atS: number, value: 'trading' | 'degraded' | 'stopped', run = 1): BotEvent {
  return {
    type: 'trading',
    run,
    atMs: atS * 1000,
    mode: value,
    reasons: value === 'degraded' ? ['private feeds down (reconnecting)'] : [],
  };
}

export function runOf(run: number, fromS: number, toS?: number): BotRun {
  return {
    run,
    startedAtMs: fromS * 1000,
    ...(toS === undefined ? {} : { endedAtMs: toS * 1000, exit: { code: 0, signal: null, planned: 'stop' } }),
  };
}

/** A drop at `atS`: reconnecting and degraded, open, authenticated `authS` later, trading `tradingS` later. */
export function reconnect(atS: number, authS: number, tradingS: number, run = 1): BotEvent[] {
  return [
    connection(atS, 'reconnecting', run),
    mode(atS, 'degraded', run),
    connection(atS + 0.2, 'open', run),
    connection(atS + authS, 'authenticated', run),
    mode(atS + tradingS, 'trading', run),
  ];
}
