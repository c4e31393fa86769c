import { describe, expect, it } from 'vitest';
import { SessionPnl } from '../../src/engine/sessionPnl.js';
import { ClientOrderIds } from '../../src/engine/clientOrderIds.js';

describe('SessionPnl', () => {
  it('is unknown until a balance is seen, then measures from the first balance', () => {
    const pnl = new SessionPnl();
    expect(pnl.snapshot()).toBeUndefined();
    pnl.onBalance('1000');
    expect(pnl.snapshot()).toEqual({ realized: '0', unrealized: '0' });
    pnl.onBalance('987.5');
    pnl.onUnrealized(1, '-3.25');
    pnl.onUnrealized(2, '1');
    pnl.onUnrealized(1, '-4');
    expect(pnl.snapshot()).toEqual({ realized: '-12.5', unrealized: '-3' });
  });
});

describe('ClientOrderIds', () => {
  it('never collide between slots started in the same millisecond, and fit uint64', () => {
    const a = new ClientOrderIds(1_795_000_000_000, 0, 2);
    const b = new ClientOrderIds(1_795_000_000_000, 1, 2);
    const ids = new Set<bigint>();
    for (let i = 0; i < 1000; i++) {
      ids.add(a.next());
      ids.add(b.next());
    }
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id > 0n && id < 1n << 64n).toBe(true);
  });
});
