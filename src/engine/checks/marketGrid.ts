import { compareDecimals, isDecimalString, parseDecimal, type FixedPoint } from '../../core/decimal.js';
import type { MarketView } from './marketView.js';
import { refuse } from '../intents/refusal.js';

/**
 * A market's grid (size step, price tick, minimum size) checked and parsed once per market record
 * rather than on every intent: re-parsing the same three decimal strings was a measurable part of
 * the pre-trade checks. A record whose values change in place is parsed again, so the cache can
 * never answer for values it did not check.
 */
export interface MarketGrid {
  readonly step: FixedPoint;
  readonly tick: FixedPoint;
  readonly minSize: FixedPoint;
}

interface CachedGrid {
  readonly stepText: string;
  readonly tickText: string;
  readonly minText: string;
  readonly grid: MarketGrid;
}

const cache = new WeakMap<MarketView['config'], CachedGrid>();

/** The parsed grid, or a `market_config` refusal naming the first malformed value. */
export function marketGrid(market: MarketView): MarketGrid {
  const config = market.config;
  const cached = cache.get(config);
  if (
    cached !== undefined &&
    cached.stepText === config.step_size &&
    cached.tickText === config.step_price &&
    cached.minText === config.min_order_size
  ) {
    return cached.grid;
  }
  const grid = parseGrid(config);
  cache.set(config, { stepText: config.step_size, tickText: config.step_price, minText: config.min_order_size, grid });
  return grid;
}

function parseGrid(config: MarketView['config']): MarketGrid {
  const { step_size, step_price, min_order_size } = config;
  for (const [name, value] of [
    ['step_size', step_size],
    ['step_price', step_price],
  ] as const) {
    if (!isDecimalString(value) || compareDecimals(value, '0') <= 0) {
      refuse('market_config', value, `the market reports a non-positive or malformed ${name}`);
    }
  }
  if (!isDecimalString(min_order_size) || min_order_size.startsWith('-')) {
    refuse('market_config', min_order_size, 'the market reports a malformed min_order_size');
  }
  return Object.freeze({
    step: parseDecimal(step_size, 'step_size'),
    tick: parseDecimal(step_price, 'step_price'),
    minSize: parseDecimal(min_order_size, 'min_order_size'),
  });
}
