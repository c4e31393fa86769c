import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/runtime/config/configError.js';
import { checkConfiguredMarkets } from '../../../../src/runtime/bot/startup/checkConfiguredMarkets.js';
import { formatMarketTable, marketRows } from '../../../../src/runtime/bot/startup/marketTable.js';
import type { Market } from '../../../../src/venue/schemas/restMarkets.js';

const market = (id: string, name: string, tick: string, step: string, min: string): Market => ({
  market_id: id,
  mark_price: '100',
  config: { name, step_price: tick, step_size: step, min_order_size: min, max_leverage: '20' },
});
const MARKETS = [
  market('2', 'ETH/USDC', '0.01', '0.0001', '0.001'),
  market('1', 'BTC/USDC', '0.1', '0.00001', '0.0001'),
];
const strategies = (...markets: number[][]) => ({ strategies: markets.map((m) => ({ markets: m })) }) as never;

describe('checkConfiguredMarkets', () => {
  it('accepts markets the venue has', () => {
    expect(() => checkConfiguredMarkets(strategies([1], [2, 1]), MARKETS)).not.toThrow();
  });

  it('names every entry whose market is missing and lists the markets there are, by id', () => {
    let caught: unknown;
    try {
      checkConfiguredMarkets(strategies([1], [2, 7], [9]), MARKETS);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.problems.map((p) => p.path)).toEqual(['strategies[1].markets[1]', 'strategies[2].markets[0]']);
    expect(error.problems[0]?.problem).toBe(
      'market 7 does not exist on this venue; its markets: 1 BTC/USDC (tick 0.1, step 0.00001, min size 0.0001); 2 ETH/USDC (tick 0.01, step 0.0001, min size 0.001)',
    );
    expect(error.hints.join(' ')).toContain('perpbot markets');
  });
});

describe('the markets table', () => {
  it('sorts by id and aligns the columns', () => {
    expect(formatMarketTable(marketRows(MARKETS)).split('\n')).toEqual([
      'id  name      tick  step     min size  max leverage  mark',
      '1   BTC/USDC  0.1   0.00001  0.0001    20            100',
      '2   ETH/USDC  0.01  0.0001   0.001     20            100',
      '',
    ]);
  });
});
