import { describe, expect, it } from 'vitest';
import { LostFrameRounds } from '../../../src/engine/connection/lostFrameRounds.js';

/** Rounds that end when the test says so. */
function controlledRounds() {
  const started: number[] = [];
  const ends: Array<() => void> = [];
  const rounds = new LostFrameRounds(
    (sinceMs) =>
      new Promise<void>((end) => {
        started.push(sinceMs);
        ends.push(end);
      }),
    (error) => {
      throw error;
    },
  );
  const endNext = async (): Promise<void> => {
    ends.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { rounds, started, endNext };
}

describe('LostFrameRounds', () => {
  it('runs one round per loss when each ends before the next loss', async () => {
    const { rounds, started, endNext } = controlledRounds();
    rounds.lost(1_000);
    await endNext();
    rounds.lost(5_000);
    await endNext();
    expect(started).toEqual([1_000, 5_000]);
  });

  it('never aborts a running round: losses meanwhile make one more round, from the earliest of them', async () => {
    const { rounds, started, endNext } = controlledRounds();
    rounds.lost(1_000);
    rounds.lost(3_000);
    rounds.lost(2_000);
    expect(started).toEqual([1_000]);
    await endNext();
    expect(started).toEqual([1_000, 2_000]);
    await endNext();
    expect(started).toEqual([1_000, 2_000]);
    // Idle again: the next loss starts a round at once.
    rounds.lost(9_000);
    expect(started).toEqual([1_000, 2_000, 9_000]);
  });

  it('on a stream that loses frames at every block, each round ends and the next covers every loss meanwhile', async () => {
    const { rounds, started, endNext } = controlledRounds();
    for (let block = 0; block < 20; block++) {
      rounds.lost(block * 250);
      if (block % 4 === 3) await endNext();
    }
    expect(started).toEqual([0, 250, 1_000, 2_000, 3_000, 4_000]);
    await endNext();
    rounds.lost(10_000);
    expect(started.at(-1)).toBe(10_000);
  });
});
