import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKETS, compileMarket, type MarketDefinition } from '../../../src/sim/exchange/markets.js';
import { OraclePrices } from '../../../src/sim/exchange/oraclePrices.js';

const specs = DEFAULT_MARKETS.map(compileMarket);
const walk = (seed: number, blocks: number, markets = specs) => {
  const oracle = new OraclePrices(markets, seed);
  const path: Record<string, { mark_price: string; index_price: string }>[] = [];
  for (let i = 0; i < blocks; i++) {
    oracle.step();
    path.push(oracle.prices());
  }
  return path;
};

describe('oracle prices', () => {
  it('starts at each market’s initial mark, in integer wei strings', () => {
    const oracle = new OraclePrices(specs, 1);
    expect(oracle.prices()['1']).toEqual({
      mark_price: '65000000000000000000000',
      index_price: '65000000000000000000000',
    });
    expect(oracle.prices()['4']?.mark_price).toBe('120000000000000000');
  });

  it('is reproducible from its seed, and another seed walks elsewhere', () => {
    expect(walk(5, 200)).toEqual(walk(5, 200));
    expect(walk(5, 200)).not.toEqual(walk(6, 200));
    for (const prices of walk(5, 50)) {
      for (const price of Object.values(prices)) {
        expect(price.mark_price).toMatch(/^[1-9]\d*$/);
        expect(price.index_price).toMatch(/^[1-9]\d*$/);
      }
    }
  });

  it('walks each market on its own stream (adding a market does not change another’s path)', () => {
    const eth = specs.filter((m) => m.marketId === 2);
    const alone = walk(5, 100, eth).map((p) => p['2']);
    const together = walk(5, 100).map((p) => p['2']);
    expect(together).toEqual(alone);
  });

  it('moves the index at most the volatility bound per block (plus the price grid)', () => {
    const oracle = new OraclePrices(specs, 11, 300);
    let previous = oracle.indexWei(1);
    let moved = false;
    for (let i = 0; i < 500; i++) {
      oracle.step();
      const next = oracle.indexWei(1);
      const delta = next > previous ? next - previous : previous - next;
      expect(delta).toBeLessThanOrEqual((previous * 300n) / 1_000_000n + specs[0]!.tickWei);
      if (delta > 0n) moved = true;
      previous = next;
    }
    expect(moved).toBe(true);
  });

  it('setMark moves mark and index; the walk continues from there', () => {
    const oracle = new OraclePrices(specs, 3);
    oracle.setMark(1, 70_000n * 10n ** 18n);
    expect(oracle.prices()['1']).toEqual({
      mark_price: '70000000000000000000000',
      index_price: '70000000000000000000000',
    });
    oracle.step();
    const mark = oracle.markWei(1);
    expect(mark > 69_900n * 10n ** 18n && mark < 70_100n * 10n ** 18n).toBe(true);
    expect(() => oracle.setMark(1, 0n)).toThrow(/positive/);
    expect(() => oracle.setMark(42, 1n)).toThrow(/market_id/);
  });

  it('never walks below one tick', () => {
    const tiny: MarketDefinition = { ...(DEFAULT_MARKETS[2] as MarketDefinition), initial_mark_price: '0.001' };
    const oracle = new OraclePrices([compileMarket(tiny)], 2, 100_000);
    for (let i = 0; i < 300; i++) oracle.step();
    expect(oracle.markWei(3) >= 10n ** 15n).toBe(true);
  });
});
