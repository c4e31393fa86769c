import { describe, expect, it } from 'vitest';
import { StreamCoverage } from '../../../src/engine/connection/streamCoverage.js';

function coverage() {
  const rounds: number[] = [];
  return { rounds, c: new StreamCoverage((sinceMs) => rounds.push(sinceMs)) };
}

describe('StreamCoverage', () => {
  it('owes nothing for a connection whose authentication started no reconnect round (the first)', () => {
    const { rounds, c } = coverage();
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

  it('nothing for a connection that never counted a block', () => {
    const { rounds, c } = coverage();
    c.reconnected(5_000);
    c.lost();
    expect(rounds).toEqual([]);
  });
});
