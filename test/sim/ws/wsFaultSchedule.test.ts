import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { NO_FAULTS } from '../../../src/sim/simContext.js';
import { WsFaultSchedule, type WsFaultSettings } from '../../../src/sim/ws/wsFaultSchedule.js';

type Event =
  { readonly at: number; readonly kind: 'drop' } | { readonly at: number; readonly kind: 'stall'; readonly ms: number };

function schedule(seed = 1): { clock: ManualClock; events: Event[]; faults: WsFaultSchedule; start: number } {
  const clock = new ManualClock();
  const events: Event[] = [];
  const faults = new WsFaultSchedule({
    timers: clock,
    seed,
    targets: {
      dropAll: () => events.push({ at: clock.now(), kind: 'drop' }),
      stall: (ms) => events.push({ at: clock.now(), kind: 'stall', ms }),
    },
  });
  return { clock, events, faults, start: clock.now() };
}

const settings = (change: Partial<WsFaultSettings>): WsFaultSettings => ({ ...NO_FAULTS, ...change });

function gaps(events: readonly Event[], start: number): number[] {
  return events.map((e, i) => e.at - (i === 0 ? start : (events[i - 1]?.at ?? start)));
}

describe('WsFaultSchedule', () => {
  it('does nothing with the defaults (off)', async () => {
    const { clock, events, faults } = schedule();
    faults.apply(NO_FAULTS);
    await clock.advance(60_000);
    expect(events).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('drops every connection about every wsDropEveryMs: gaps within 0.5x..1.5x, not all equal', async () => {
    const { clock, events, faults, start } = schedule();
    faults.apply(settings({ wsDropEveryMs: 1_000 }));
    await clock.advance(30_000);
    const between = gaps(events, start);
    expect(events.every((e) => e.kind === 'drop')).toBe(true);
    expect(events.length).toBeGreaterThanOrEqual(20);
    expect(events.length).toBeLessThanOrEqual(60);
    expect(Math.min(...between)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...between)).toBeLessThanOrEqual(1_500);
    expect(new Set(between).size).toBeGreaterThan(5);
  });

  it('is reproducible from the seed, and another seed draws other gaps', async () => {
    const run = async (seed: number): Promise<number[]> => {
      const { clock, events, faults, start } = schedule(seed);
      faults.apply(settings({ wsDropEveryMs: 400, wsStallEveryMs: 700, wsStallForMs: 100 }));
      await clock.advance(10_000);
      faults.close();
      return events.map((e) => e.at - start);
    };
    const first = await run(7);
    expect(first.length).toBeGreaterThan(10);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });

  it('stalls for wsStallForMs, then waits about wsStallEveryMs after the stall ends', async () => {
    const { clock, events, faults, start } = schedule();
    faults.apply(settings({ wsStallEveryMs: 2_000, wsStallForMs: 500 }));
    await clock.advance(40_000);
    expect(events.length).toBeGreaterThanOrEqual(10);
    expect(events.every((e) => e.kind === 'stall' && e.ms === 500)).toBe(true);
    const between = gaps(events, start);
    expect(between[0]).toBeGreaterThanOrEqual(1_000);
    for (const gap of between.slice(1)) {
      expect(gap).toBeGreaterThanOrEqual(500 + 1_000);
      expect(gap).toBeLessThanOrEqual(500 + 3_000);
    }
  });

  it('takes new settings at any time: 0 stops a fault, a new period starts over', async () => {
    const { clock, events, faults } = schedule();
    faults.apply(settings({ wsDropEveryMs: 100 }));
    await clock.advance(1_000);
    const dropped = events.length;
    expect(dropped).toBeGreaterThanOrEqual(6);
    faults.apply(settings({ wsDropEveryMs: 0 }));
    await clock.advance(5_000);
    expect(events.length).toBe(dropped);
    expect(clock.pendingSleeps).toBe(0);
    const restartedAt = clock.now();
    faults.apply(settings({ wsDropEveryMs: 10_000 }));
    await clock.advance(4_999);
    expect(events.length).toBe(dropped);
    await clock.advance(10_001);
    expect(events.length).toBe(dropped + 1);
    expect(events.at(-1)?.at).toBeGreaterThanOrEqual(restartedAt + 5_000);
    // Settings that did not change keep the running wait.
    faults.apply(settings({ wsDropEveryMs: 10_000 }));
    expect(clock.pendingSleeps).toBe(1);
  });

  it('close stops everything and ignores later settings; a failing target is reported and the schedule goes on', async () => {
    const clock = new ManualClock();
    const errors: unknown[] = [];
    let calls = 0;
    const faults = new WsFaultSchedule({
      timers: clock,
      seed: 3,
      targets: {
        dropAll: () => {
          calls++;
          throw new Error('boom');
        },
        stall: () => undefined,
      },
      onError: (error) => errors.push(error),
    });
    faults.apply(settings({ wsDropEveryMs: 100, wsStallEveryMs: 100 }));
    await clock.advance(1_000);
    expect(calls).toBeGreaterThanOrEqual(6);
    expect(errors).toHaveLength(calls);
    faults.close();
    faults.apply(settings({ wsDropEveryMs: 50 }));
    await clock.advance(1_000);
    expect(errors).toHaveLength(calls);
    expect(clock.pendingSleeps).toBe(0);
  });
});
