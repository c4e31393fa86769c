import { describe, expect, it } from 'vitest';
import { balanceMatch } from '../../../../../src/runtime/diagnostics/chaos/audit/balanceMatch.js';
import type { BotEvent } from '../../../../../src/runtime/diagnostics/chaos/botTimeline.js';
import type { VenueFill } from '../../../../../src/runtime/diagnostics/chaos/venueTruth.js';

function fill(atMs: number, realizedPnl: string, fee: string): VenueFill {
  return { id: String(atMs), orderId: '0xa1', marketId: 1, side: 'sell', size: '0.001', fee, realizedPnl, atMs };
}

const reconciledAt = (atMs: number): BotEvent => ({ type: 'reconciled', run: 1, atMs });

describe('balanceMatch', () => {
  // Venue: 1000 deposited; fills at 500 (-0.01 fee), 2000 (+1.5 pnl, -0.02 fee), 5000 (-0.3, -0.01): now 1001.16.
  const fills = [fill(500, '0', '0.01'), fill(2_000, '1.5', '0.02'), fill(5_000, '-0.3', '0.01')];

  it('holds when the snapshot is what the venue held when it was taken, later fills aside', () => {
    const result = balanceMatch({ balance: '999.99', atMs: 1_000 }, '1001.16', fills, [reconciledAt(1_200)]);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('999.990000 USDC (venue then 999.990000, now 1001.160000)');
  });

  it("shows the balances at the venue's USDC precision, and keeps the exact values in the data and a failure's detail", () => {
    const exact = [fill(500, '0', '0.010000000000000004')];
    const result = balanceMatch(
      { balance: '999.989999999999999996', atMs: 1_000 },
      '999.989999999999999996',
      exact,
      [],
    );
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('999.990000 USDC (venue then 999.990000, now 999.990000)');
    expect(result.data['journal']).toBe('999.989999999999999996');
    const off = balanceMatch({ balance: '999.989999999999999995', atMs: 1_000 }, '999.989999999999999996', exact, []);
    expect(off.ok).toBe(false);
    expect(off.detail).toContain('999.989999999999999995');
    expect(off.detail).toContain('(999.989999999999999996)');
  });

  it('holds when a fill landed between the start of the reconciliation and its read of the balance', () => {
    const result = balanceMatch({ balance: '1001.47', atMs: 1_900 }, '1001.16', fills, [reconciledAt(2_300)]);
    expect(result.ok).toBe(true);
    expect(result.data['venueThen']).toEqual(['999.99', '1001.47']);
  });

  it('fails when the snapshot matches no balance the venue held then', () => {
    const result = balanceMatch({ balance: '1000', atMs: 1_000 }, '1001.16', fills, [reconciledAt(1_200)]);
    expect(result.ok).toBe(false);
    expect(result.detail).toContain('is not what the venue held then (999.99)');
  });

  it('fails without a snapshot, and a fill after the reconciliation ended is no excuse', () => {
    expect(balanceMatch(undefined, '1000', [], []).ok).toBe(false);
    const late = balanceMatch({ balance: '1001.47', atMs: 1_000 }, '1001.16', fills, [reconciledAt(1_200)]);
    expect(late.ok).toBe(false);
  });
});
