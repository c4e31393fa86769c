import { describe, expect, it } from 'vitest';
import { SimRequestLog } from '../../../src/sim/rest/simRequestLog.js';

describe('SimRequestLog', () => {
  it('keeps the newest `kept` requests oldest first, paths without their query, and counts the dropped', () => {
    const log = new SimRequestLog(3);
    log.note('GET', '/v1/a?x=1', 1);
    log.note('POST', '/v1/orders/place', 2);
    log.note('GET', '/v1/a', 3);
    log.note('GET', '/v1/b?y=2&z=3', 4);
    expect(log.list()).toEqual([
      { method: 'POST', path: '/v1/orders/place', atMs: 2 },
      { method: 'GET', path: '/v1/a', atMs: 3 },
      { method: 'GET', path: '/v1/b', atMs: 4 },
    ]);
    expect(log.droppedCount).toBe(1);
    expect(log.list(3).map((e) => e.atMs)).toEqual([3, 4]);
    expect([...log.counts(3)]).toEqual([
      ['GET /v1/a', 1],
      ['GET /v1/b', 1],
    ]);
  });

  it('stays bounded and in order over many more requests than it keeps', () => {
    const log = new SimRequestLog(100);
    for (let i = 0; i < 50_000; i++) log.note(i % 2 === 0 ? 'POST' : 'GET', `/p${i % 3}`, i);
    const kept = log.list();
    expect(kept).toHaveLength(100);
    expect(kept[0]?.atMs).toBe(49_900);
    expect(kept.at(-1)?.atMs).toBe(49_999);
    expect(log.droppedCount).toBe(49_900);
    const counted = [...log.counts().values()].reduce((a, b) => a + b, 0);
    expect(counted).toBe(100);
  });
});
