import { describe, expect, it } from 'vitest';
import { ChangedTicks } from '../../../src/sim/exchange/changedTicks.js';

describe('ChangedTicks', () => {
  it('gives each reader the ticks changed since it last took them, each once, by side', () => {
    const changed = new ChangedTicks();
    const reader = {};
    changed.touch(0, 5); // before it is followed: not its change
    changed.follow(reader);
    changed.touch(0, 7);
    changed.touch(1, 9);
    changed.touch(0, 7);
    expect(changed.take(reader)).toEqual([[7], [9]]);
    expect(changed.take(reader)).toEqual([[], []]);
  });

  it('follows readers apart: one taking leaves the other its changes', () => {
    const changed = new ChangedTicks();
    const a = {};
    const b = {};
    changed.follow(a);
    changed.follow(b);
    changed.touch(1, 3);
    expect(changed.take(a)).toEqual([[], [3]]);
    expect(changed.take(b)).toEqual([[], [3]]);
  });

  it('drops a reader that falls too far behind: it must read the whole book again', () => {
    const changed = new ChangedTicks();
    const idle = {};
    const busy = {};
    changed.follow(idle);
    changed.follow(busy);
    for (let tick = 0; tick < 5_000; tick++) {
      changed.touch(0, tick);
      if (tick % 100 === 0) changed.take(busy);
    }
    expect(changed.take(idle)).toBeUndefined();
    expect(changed.take(busy)?.[0].length).toBeGreaterThan(0);
    // Followed again, it starts from nothing.
    changed.follow(idle);
    expect(changed.take(idle)).toEqual([[], []]);
  });

  it('an unknown reader is told to read the whole book', () => {
    expect(new ChangedTicks().take({})).toBeUndefined();
  });
});
