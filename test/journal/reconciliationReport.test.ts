import { describe, expect, it } from 'vitest';
import { describeBalance } from '../../src/journal/reconciliationReport.js';

describe('describeBalance', () => {
  const at = Date.UTC(2026, 0, 2, 3, 4, 5);

  it('says when there is no earlier snapshot to compare with', () => {
    expect(describeBalance({ venue: '1000' })).toBe('balance 1000.000000 USDC (no earlier snapshot in the journal)');
  });

  it('signs the change since the journaled snapshot', () => {
    expect(describeBalance({ venue: '1250', journaled: '1000', journaledAtMs: at, change: '250' })).toBe(
      'balance 1250.000000 USDC: +250.000000 since the journaled 1000.000000 at 2026-01-02T03:04:05.000Z',
    );
    expect(describeBalance({ venue: '-3', journaled: '2', journaledAtMs: at, change: '-5' })).toBe(
      'balance -3.000000 USDC: -5.000000 since the journaled 2.000000 at 2026-01-02T03:04:05.000Z',
    );
    expect(describeBalance({ venue: '2', journaled: '2', journaledAtMs: at, change: '0' })).toBe(
      'balance 2.000000 USDC: 0.000000 since the journaled 2.000000 at 2026-01-02T03:04:05.000Z',
    );
  });

  it("shows the venue's USDC precision, half to even, not the 18 decimals the balance is kept in; the change adds up on screen", () => {
    const b = {
      venue: '999.853798214999999996',
      journaled: '999.853798514999999996',
      journaledAtMs: at,
      change: '-0.0000003',
    };
    expect(describeBalance(b)).toBe(
      'balance 999.853798 USDC: -0.000001 since the journaled 999.853799 at 2026-01-02T03:04:05.000Z',
    );
  });
});
