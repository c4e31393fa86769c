import { describe, expect, it } from 'vitest';
import { StreamCoverage } from '../../../src/engine/connection/streamCoverage.js';

function coverage() {
  const rounds: number[] = [];
  return { rounds, c: new StreamCoverage((sinceMs) => rounds.push(sinceMs)) };
}

/** Past the start: the first connection counted, its round owed and taken; then it is lost. */
function reconnecting() {
  const { rounds, c } = coverage();
  c.reading(1_000);
  c.authenticated(1_100);
  c.counted(1_200);
  rounds.length = 0;
  c.lost();
  return { rounds, c };
}

describe('StreamCoverage', () => {
  it('first connection: once it is authenticated and counted, in either order, a round from the start-up read', () => {
    for (const counterFirst of [true, false]) {
      const { rounds, c } = coverage();
      c.reading(1_000);
      if (counterFirst) c.counted(1_400);
      c.authenticated(1_500);
      if (!counterFirst) c.counted(1_700);
      expect(rounds).toEqual([1_000]);
      // Once per connection.
      c.counted(1_800);
      c.authenticated(1_900);
      expect(rounds).toEqual([1_000]);
    }
  });

  it("a later connection whose first oracle frame came before its authentication owes nothing: the reconnect's round reads after both", () => {
    const { rounds, c } = reconnecting();
    c.counted(5_000);
    c.authenticated(5_100);
    c.reading(5_200);
    expect(rounds).toEqual([]);
  });

  it('a later connection whose first oracle frame came after its authentication: a round from the authentication', () => {
    const { rounds, c } = reconnecting();
    c.authenticated(9_000);
    c.reading(9_100);
    // A stall from before the first oracle frame: whatever it lost shows no gap.
    c.counted(9_900);
    expect(rounds).toEqual([9_000]);
  });

  it('nothing for a connection that never counted a block, nor before anything was read', () => {
    const { rounds, c } = coverage();
    c.authenticated(100);
    c.counted(200);
    expect(rounds).toEqual([]);
    c.reading(300);
    c.lost();
    c.authenticated(400);
    c.lost();
    expect(rounds).toEqual([]);
  });
});
