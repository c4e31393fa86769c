import { describe, expect, it } from 'vitest';
import { compileMarket } from '../../../src/sim/exchange/markets.js';
import { marketDefinitionOf } from '../../../src/sim/replay/venueMarkets.js';
import { marketsResponseSchema } from '../../../src/venue/schemas/restMarkets.js';
import { wireSample } from '../../venue/wireSamples/wireSample.js';

// The in-repo copy of the captured sample: a clean clone has no ../shared beside it.
const captured = marketsResponseSchema.parse(wireSample('rest-markets.fb.json')).data.markets;

describe('marketDefinitionOf: the venue market a paper shadow copies', () => {
  it('keeps the captured venue market’s id, grid, minimum size and mark, and the simulator compiles it', () => {
    const venue = captured[0]!;
    const definition = marketDefinitionOf(venue);
    expect(definition).toMatchObject({
      market_id: Number(venue.market_id),
      initial_mark_price: venue.mark_price,
      config: {
        step_size: venue.config.step_size,
        step_price: venue.config.step_price,
        min_order_size: venue.config.min_order_size,
      },
    });
    expect(compileMarket(definition).marketId).toBe(Number(venue.market_id));
  });

  it('assumes the conservative margin parameters when the venue leaves them out', () => {
    const venue = captured[0]!;
    const bare = {
      ...venue,
      config: { ...venue.config, max_leverage: undefined, maintenance_margin_factor: undefined },
    };
    expect(marketDefinitionOf(bare).config).toMatchObject({ max_leverage: '10', maintenance_margin_factor: '0.05' });
  });
});
