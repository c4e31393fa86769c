import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { LOST_FRAME_ROUND_SPACING_MS, LostFrameRounds } from '../../../src/engine/connection/lostFrameRounds.js';

/** Rounds that end when the test says so, on a manual clock. */
function controlledRounds() {
  const clock = new ManualClock(0);
  const stop = new AbortController();
  const started: Array<{ since: number; atMs: number }> = [];
  const causes: string[] = [];
  const ends: Array<() => void> = [];
  const rounds = new LostFrameRounds({
    round: (since, cause) =>
      new Promise<void>((end) => {
        started.push({ since, atMs: clock.now() });
        causes.push(cause);
        ends.push(end);
      }),
    clock,
    signal: stop.signal,
    onError: (error) => {
      throw error;
    },
  });
  const endNext = async (): Promise<void> => {
    ends.shift()?.();
    await clock.advance(0);
  };
  return { rounds, started, causes, endNext, clock, stop };
}

describe('LostFrameRounds', () => {
  it('runs one round per loss when each ends before the next loss, at once when the last began long enough ago', async () => {
    const { rounds, started, endNext, clock } = controlledRounds();
    rounds.lost(1_000);
    await endNext();
    await clock.advance(5_000);
    rounds.lost(5_000);
    await endNext();
    expect(started).toEqual([
      { since: 1_000, atMs: 0 },
      { since: 5_000, atMs: 5_000 },
    ]);
  });

  it('never aborts a running round: losses meanwhile make one more, from the earliest of them, a spacing after the last began', async () => {
    const { rounds, started, endNext, clock } = controlledRounds();
    rounds.lost(1_000);
    rounds.lost(3_000);
    rounds.lost(2_000);
    expect(started).toEqual([{ since: 1_000, atMs: 0 }]);
    await clock.advance(100);
    await endNext();
    expect(started).toHaveLength(1);
    // A loss during the wait is covered by the same round.
    rounds.lost(1_500);
    await clock.advance(LOST_FRAME_ROUND_SPACING_MS - 100);
    expect(started).toEqual([
      { since: 1_000, atMs: 0 },
      { since: 1_500, atMs: LOST_FRAME_ROUND_SPACING_MS },
    ]);
    await endNext();
    await clock.advance(10_000);
    expect(started).toHaveLength(2);
  });

  it('on a stream that loses frames at every block, rounds follow each other a spacing apart and each ends', async () => {
    const { rounds, started, endNext, clock } = controlledRounds();
    for (let block = 0; block < 40; block++) {
      rounds.lost(block * 250);
      await clock.advance(250);
      if (block % 4 === 3) await endNext();
    }
    // Ten seconds of losses: eleven rounds, a second apart (the last began as the losses ended).
    expect(started.map((s) => s.atMs)).toEqual(Array.from({ length: 11 }, (_, i) => i * 1_000));
    // Each covers from the first loss after the one before it began.
    expect(started.map((s) => s.since)).toEqual([0, 250, ...Array.from({ length: 9 }, (_, i) => (i + 1) * 1_000)]);
  });

  it('names a round stream_start only when every window it covers is one; a lost frame among them makes it frames_lost', async () => {
    const { rounds, started, causes, endNext, clock } = controlledRounds();
    rounds.lost(1_000, 'stream_start');
    rounds.lost(1_100, 'stream_start');
    rounds.lost(1_200);
    rounds.lost(1_300, 'stream_start');
    await endNext();
    await clock.advance(LOST_FRAME_ROUND_SPACING_MS);
    await endNext();
    await clock.advance(10_000);
    rounds.lost(12_000, 'stream_start');
    await endNext();
    expect(started.map((r) => r.since)).toEqual([1_000, 1_100, 12_000]);
    expect(causes).toEqual(['stream_start', 'frames_lost', 'stream_start']);
  });

  it('starts no round after the engine stopped', async () => {
    const { rounds, started, endNext, clock, stop } = controlledRounds();
    rounds.lost(0);
    rounds.lost(100);
    await endNext();
    stop.abort();
    await clock.advance(5_000);
    expect(started).toHaveLength(1);
  });
});
