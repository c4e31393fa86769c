import { describe, expect, it } from 'vitest';
import { VirtualTime } from '../../../../src/inProcess/virtualTime.js';
import type { FlightRun } from '../../../../src/runtime/replay/flight/readFlight.js';
import { recordKey, ReplayCursor } from '../../../../src/runtime/replay/flight/replayCursor.js';
import { frame, T0 } from './flightFixture.js';

const intent = (t: number, id: string): FlightRun['records'][number] => ({
  type: 'intent',
  t,
  intent: { intentId: id, kind: 'cancel' },
});
const order = (t: number, id: string, type: string): FlightRun['records'][number] => ({
  type: 'order',
  t,
  event: { intentId: id, type },
});
const outcome = (t: number, id: string): FlightRun['records'][number] => ({
  type: 'outcome',
  t,
  outcome: { intentId: id, type: 'accepted' },
});

/**
 * A requote handed over in one synchronous run on a busy recorded bot: the mark at 100, its two
 * intents at 120 and 130 (the clock moved on while the strategy and the engine worked), the first
 * one's queued event between them, the first one's outcome after the run; then the next frame.
 */
const BURST: FlightRun['records'] = [
  frame(T0 + 100),
  intent(T0 + 120, 'a'),
  order(T0 + 121, 'a', 'queued'),
  intent(T0 + 130, 'b'),
  outcome(T0 + 131, 'a'),
  frame(T0 + 140),
];

describe('ReplayCursor: the replay takes its steps where the recorded bot took them', () => {
  it("hands over intents of one synchronous run in one run too, the clock at each one's time, no promise settling between", async () => {
    const time = new VirtualTime(T0);
    const cursor = new ReplayCursor(BURST, time);
    const log: string[] = [];
    await time.advanceTo(T0 + 100);
    cursor.reach(0);
    cursor.applied(0);
    // As the engine would: a's queued event made at once, its outcome a promise later.
    cursor.take(1, () => {
      log.push(`a at ${time.now() - T0}`);
      cursor.made(recordKey(BURST[1]!)!);
      cursor.made(recordKey(BURST[2]!)!);
      void Promise.resolve().then(() => log.push('outcome of a'));
    });
    cursor.take(3, () => log.push(`b at ${time.now() - T0}`));
    expect(log).toEqual(['a at 120', 'b at 130']);
    await time.settle();
    expect(log).toEqual(['a at 120', 'b at 130', 'outcome of a']);
  });

  it('keeps a step for the drive when a frame or answer lies before it, or an input the replay has not made again', async () => {
    const time = new VirtualTime(T0);
    const cursor = new ReplayCursor(BURST, time);
    const log: string[] = [];
    // The frame at 100 is not delivered yet: a waits for the drive.
    cursor.take(1, () => log.push(`a at ${time.now() - T0}`));
    // b waits behind a's queued event, which the replay has not made.
    cursor.take(3, () => log.push(`b at ${time.now() - T0}`));
    expect(log).toEqual([]);
    for (const index of [0, 1]) {
      await time.advanceTo(BURST[index]!.t);
      cursor.reach(index);
      cursor.applied(index);
    }
    expect(log).toEqual(['a at 120']);
    cursor.made(recordKey(BURST[1]!)!);
    cursor.made(recordKey(BURST[2]!)!);
    await time.settle();
    expect(log).toEqual(['a at 120', 'b at 130']);
  });

  it('lets no waiting step cut into the work of the step being taken (its own nested steps go first)', async () => {
    const time = new VirtualTime(T0);
    const records = [
      frame(T0 + 100),
      intent(T0 + 110, 'a'),
      { type: 'admitted', t: T0 + 111, intentId: 'a' } as const,
      intent(T0 + 120, 'b'),
    ];
    const cursor = new ReplayCursor(records, time);
    const log: string[] = [];
    cursor.take(1, () => {
      log.push('a handed over');
      cursor.made('I a');
      // The engine admits a at once: a nested step, taken ahead of the drive.
      expect(cursor.hold(2)).toBeUndefined();
      cursor.made('A a');
      log.push('a admitted');
    });
    cursor.take(3, () => log.push('b handed over'));
    await time.advanceTo(T0 + 100);
    cursor.reach(0);
    cursor.applied(0);
    await time.advanceTo(T0 + 110);
    cursor.reach(1);
    expect(log).toEqual(['a handed over', 'a admitted', 'b handed over']);
  });

  it('takes every step still waiting when the recording ends', async () => {
    const time = new VirtualTime(T0);
    const cursor = new ReplayCursor(BURST, time);
    const held = cursor.hold(3);
    expect(held).toBeDefined();
    cursor.finish();
    await expect(held).resolves.toBeUndefined();
  });
});
