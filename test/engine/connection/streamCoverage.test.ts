import { describe, expect, it } from 'vitest';
import { StreamCoverage } from '../../../src/engine/connection/streamCoverage.js';

/** Past the first connection (authenticated, counted); then it is lost. */
function reconnecting() {
  const rounds: number[] = [];
  const c = new StreamCoverage((sinceMs) => rounds.push(sinceMs));
  c.authenticated(1_100);
  c.counted();
  c.lost();
  return { rounds, c };
}

describe('StreamCoverage', () => {
  it('owes nothing on the first connection, whichever comes first (its start-up read is not followed)', () => {
    const { rounds } = reconnecting();
    expect(rounds).toEqual([]);
  });

  it("a reconnect whose first oracle frame came before its authentication owes nothing: the reconnect's round reads after both", () => {
    const { rounds, c } = reconnecting();
    c.counted();
    c.authenticated(5_100);
    expect(rounds).toEqual([]);
  });

  it('a reconnect whose first oracle frame came after its authentication owes a round from the authentication, once', () => {
    const { rounds, c } = reconnecting();
    c.authenticated(9_000);
    // A stall from before the first oracle frame: whatever it lost shows no gap.
    c.counted();
    c.counted();
    c.authenticated(9_500);
    expect(rounds).toEqual([9_000]);
    c.lost();
    c.authenticated(12_000);
    c.counted();
    expect(rounds).toEqual([9_000, 12_000]);
  });

  it('nothing for a connection that never counted a block', () => {
    const { rounds, c } = reconnecting();
    c.authenticated(5_000);
    c.lost();
    expect(rounds).toEqual([]);
  });
});
