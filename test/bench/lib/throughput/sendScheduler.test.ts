import { describe, expect, it } from 'vitest';
import { SendScheduler, type ScheduledRequest } from '../../../../bench/lib/throughput/sendScheduler.js';

const place = (pair: number, anchor = 1): ScheduledRequest => ({ kind: 'place', pair, anchor });
const cancel = (pair: number, anchor = 1): ScheduledRequest => ({ kind: 'cancel', pair, anchor });

describe('SendScheduler', () => {
  it('sends in list order while nothing holds the head back', () => {
    const s = new SendScheduler([place(0), place(1), place(2)]);
    expect([s.next(), s.next(), s.next(), s.next()]).toEqual([0, 1, 2, undefined]);
  });

  it('holds the cancel of pair p until p + 1 places have succeeded', () => {
    const s = new SendScheduler([place(0), place(1), cancel(1)]);
    expect(s.next()).toBe(0);
    expect(s.next()).toBe(1);
    expect(s.next()).toBeUndefined();
    // Place 1 answered first: the venue has still numbered two orders, so order base + 1 exists.
    s.answered(1, true);
    expect(s.next()).toBeUndefined();
    s.answered(0, true);
    expect(s.next()).toBe(2);
  });

  it('holds a newer anchor until every request of the older anchor is answered', () => {
    const s = new SendScheduler([place(0, 1), place(1, 1), place(2, 2)]);
    expect(s.next()).toBe(0);
    expect(s.next()).toBe(1);
    expect(s.next()).toBeUndefined();
    s.answered(0, true);
    expect(s.next()).toBeUndefined();
    s.answered(1, true);
    expect(s.next()).toBe(2);
    s.answered(2, true);
    expect(s.done).toBe(true);
  });

  it('reports stuck when a failed place leaves its cancel waiting with nothing in flight', () => {
    const s = new SendScheduler([place(0), cancel(0)]);
    expect(s.next()).toBe(0);
    expect(s.stuck).toBe(false);
    s.answered(0, false);
    expect(s.next()).toBeUndefined();
    expect(s.stuck).toBe(true);
    expect(s.done).toBe(false);
  });
});
