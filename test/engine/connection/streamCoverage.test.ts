import { describe, expect, it } from 'vitest';
import { StreamCoverage } from '../../../src/engine/connection/streamCoverage.js';

function coverage() {
  const rounds: number[] = [];
  return { rounds, c: new StreamCoverage((sinceMs) => rounds.push(sinceMs)) };
}

describe('StreamCoverage', () => {
  it('owes nothing for the first connection of a start that found nothing on the venue', () => {
    const { rounds, c } = coverage();
    c.authenticated();
    c.counted();
    c.lost();
    c.counted();
    expect(rounds).toEqual([]);
  });

  it("a reconnect whose first oracle frame came before its authentication owes nothing: the reconnect's round reads after both", () => {
    const { rounds, c } = coverage();
    c.counted();
    c.reconnected(5_100);
    expect(rounds).toEqual([]);
  });

  it('a reconnect whose first oracle frame came after its authentication owes a round from the authentication, once', () => {
    const { rounds, c } = coverage();
    c.reconnected(9_000);
    // A stall from before the first oracle frame: whatever it lost shows no gap.
    c.counted();
    c.counted();
    c.reconnected(9_500);
    expect(rounds).toEqual([9_000]);
    c.lost();
    c.reconnected(12_000);
    c.counted();
    expect(rounds).toEqual([9_000, 12_000]);
  });

  it('a reconnect counted before its authentication owes nothing when the authentication is reported after the reconnect', () => {
    const { rounds, c } = coverage();
    c.counted();
    c.reconnected(5_100);
    c.authenticated();
    expect(rounds).toEqual([]);
  });

  it('a start that found holdings owes a round from its read once the first connection is authenticated and counted, in either order', () => {
    for (const order of [
      ['authenticated', 'counted'],
      ['counted', 'authenticated'],
    ] as const) {
      const { rounds, c } = coverage();
      c.startedWithHoldings(1_000);
      c[order[0]]();
      expect(rounds).toEqual([]);
      c[order[1]]();
      expect(rounds).toEqual([1_000]);
      // Paid once: later connections of the run owe only their own reconnects' debts.
      c.counted();
      c.authenticated();
      c.lost();
      c.authenticated();
      c.counted();
      expect(rounds).toEqual([1_000]);
    }
  });

  it("a start's debt outlives a first connection lost before it was paid, and joins the reconnect's from the earlier read", () => {
    const { rounds, c } = coverage();
    c.startedWithHoldings(1_000);
    c.authenticated();
    c.lost();
    c.reconnected(4_000);
    c.authenticated();
    expect(rounds).toEqual([]);
    c.counted();
    expect(rounds).toEqual([1_000]);
  });

  it("a start's debt is paid on a reconnected connection whose first oracle frame came first, at its authentication", () => {
    const { rounds, c } = coverage();
    c.startedWithHoldings(1_000);
    c.counted();
    c.lost();
    c.counted();
    expect(rounds).toEqual([]);
    c.reconnected(4_000);
    c.authenticated();
    expect(rounds).toEqual([1_000]);
  });

  it('nothing for a connection that never counted a block', () => {
    const { rounds, c } = coverage();
    c.reconnected(5_000);
    c.lost();
    expect(rounds).toEqual([]);
  });
});
