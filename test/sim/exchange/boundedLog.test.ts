import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../../src/sim/exchange/boundedLog.js';

describe('BoundedLog', () => {
  it('keeps the newest `capacity` items, reports each evicted one once, oldest first', () => {
    const evicted: number[] = [];
    const log = new BoundedLog<number>(3, (n) => evicted.push(n));
    for (let i = 1; i <= 5; i++) log.push(i);
    expect([...log.newestFirst()]).toEqual([5, 4, 3]);
    expect([...log.oldestFirst()]).toEqual([3, 4, 5]);
    expect(log.size).toBe(3);
    expect(evicted).toEqual([1, 2]);
  });

  it('stays correct across its compactions (many more pushes than capacity)', () => {
    let evictions = 0;
    const log = new BoundedLog<number>(10, () => (evictions += 1));
    for (let i = 0; i < 5000; i++) log.push(i);
    expect([...log.newestFirst()]).toEqual(Array.from({ length: 10 }, (_, k) => 4999 - k));
    expect(log.size).toBe(10);
    expect(evictions).toBe(4990);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new BoundedLog<number>(0)).toThrow(/capacity/);
  });
});
