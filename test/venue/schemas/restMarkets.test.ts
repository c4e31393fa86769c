import { describe, expect, it } from 'vitest';
import { marketsResponseSchema } from '../../../src/venue/schemas/restMarkets.js';
import { issuePaths } from './restIssuePaths.js';

const btc = {
  market_id: '1',
  mark_price: '65000.5',
  config: { name: 'BTC/USDC', step_size: '0.00001', step_price: '0.1', min_order_size: '0.00015' },
};

describe('markets schema', () => {
  it('parses the spec fields and keeps prices as exact strings', () => {
    const parsed = marketsResponseSchema.parse({ data: { markets: [btc] } });
    expect(parsed.data.markets[0]).toEqual(btc);
  });

  it('parses the optional venue extras', () => {
    const parsed = marketsResponseSchema.parse({
      data: {
        markets: [
          {
            ...btc,
            active: true,
            post_only: false,
            reduce_only: false,
            display_name: 'BTC-PERP',
            last_price: '65001',
            index_price: '64999.9',
            config: { ...btc.config, max_leverage: '50', maintenance_margin_factor: '0.005', unlocked: true },
          },
        ],
        cached_at: 1700000000,
      },
    });
    const market = parsed.data.markets[0];
    expect(market?.config.max_leverage).toBe('50');
    expect(market?.config.unlocked).toBe(true);
    expect(market?.index_price).toBe('64999.9');
    expect(parsed.data.cached_at).toBe(1700000000);
  });

  it('refuses float prices and missing config fields, naming the path', () => {
    expect(
      issuePaths(marketsResponseSchema.safeParse({ data: { markets: [{ ...btc, mark_price: 65000.5 }] } })),
    ).toEqual(['data.markets.0.mark_price']);
    const noStep = { ...btc, config: { name: 'BTC/USDC', step_price: '0.1', min_order_size: '0.00015' } };
    expect(issuePaths(marketsResponseSchema.safeParse({ data: { markets: [btc, noStep] } }))).toEqual([
      'data.markets.1.config.step_size',
    ]);
    expect(issuePaths(marketsResponseSchema.safeParse({ data: { markets: [{ ...btc, market_id: 1.5 }] } }))).toEqual([
      'data.markets.0.market_id',
    ]);
    // venue-wire.md §2: a string on the wire; a number is read too, as the canonical string.
    expect(
      marketsResponseSchema.parse({ data: { markets: [{ ...btc, market_id: 1 }] } }).data.markets[0]?.market_id,
    ).toBe('1');
  });
});
