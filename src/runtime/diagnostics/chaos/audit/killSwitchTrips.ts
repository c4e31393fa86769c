import { isTripLine, type BotEvent } from '../botTimeline.js';
import { firstFew, type InvariantResult } from './invariant.js';

/** Faults only degrade trading: no kill switch (the engine's or a strategy budget's) tripped. */
export function killSwitchTrips(events: readonly BotEvent[]): InvariantResult {
  const lines = events.filter((e): e is Extract<BotEvent, { type: 'kill_switch' }> => e.type === 'kill_switch');
  const trips = lines.filter(isTripLine);
  return {
    id: 'kill_switch_trips',
    title: 'kill-switch trips',
    ok: trips.length === 0,
    measured: `${trips.length}`,
    ...(trips.length === 0
      ? {}
      : {
          detail: firstFew(
            lines.map((t) => `run ${t.run}: ${t.message}${t.reason === undefined ? '' : ` (${t.reason})`}`),
            2,
          ),
        }),
    data: {
      trips: trips.length,
      lines: lines.map((t) => ({
        run: t.run,
        atMs: t.atMs,
        message: t.message,
        ...(t.reason === undefined ? {} : { reason: t.reason }),
      })),
    },
  };
}
