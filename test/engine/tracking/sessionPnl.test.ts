import { describe, expect, it } from 'vitest';
import { SessionPnl } from '../../../src/engine/tracking/sessionPnl.js';
import { ClientOrderIds } from '../../../src/engine/intents/clientOrderIds.js';

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

  it('counts equity: margin moved into or out of an isolated market is no loss', () => {
    const pnl = new SessionPnl();
    pnl.onPositions([{ market_id: 2, size: '0', isolated_usdc_balance: '40' }]);
    pnl.onBalance('1000');
    expect(pnl.snapshot()).toEqual({ realized: '0', unrealized: '0' });
    // Isolated add of 150 in market 1: the cross balance falls, the isolated balance rises.
    pnl.onBalance('850');
    pnl.onPositions([{ market_id: 1, size: '0', isolated_usdc_balance: '150' }]);
    expect(pnl.snapshot()).toEqual({ realized: '0', unrealized: '0' });
    // A snapshot without market 2 (flat) keeps its isolated balance; an update without the field keeps it too.
    pnl.onPositions([{ market_id: 1, size: '0.1', unrealized_pnl: '-2' }]);
    expect(pnl.snapshot()).toEqual({ realized: '0', unrealized: '-2' });
    // A real loss in the isolated market (fees, a realized loss) lowers its balance.
    pnl.onPositions([{ market_id: 1, size: '0', isolated_usdc_balance: '140', unrealized_pnl: '0' }]);
    expect(pnl.snapshot()).toEqual({ realized: '-10', unrealized: '0' });
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
