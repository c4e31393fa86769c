import { isDecimalString, parseDecimal, type FixedPoint } from '../../core/decimal.js';
import type { MarketView } from './marketView.js';
import { refuse } from '../intents/refusal.js';

/**
 * A market's config as the pre-trade checks use it: the size step, price tick, minimum size and
 * leverage cap checked and parsed into exact fixed-point values once per market record, not once
 * per check of every intent. The checks of one intent look it up once and pass it along. The
 * texts are kept for the refusals' messages, and to notice a record whose values were changed in
 * place: that record is parsed again, so the cache never answers for values it did not check.
 */
export interface MarketRules {
  readonly step: FixedPoint;
  readonly stepText: string;
  readonly tick: FixedPoint;
  readonly tickText: string;
  readonly minSize: FixedPoint;
  readonly minSizeText: string;
  /**
   * The highest leverage a setLeverage may ask for: min(255, max_leverage rounded down), 255 when
   * the market reports none, `malformed` when what it reports is not a non-negative decimal (that
   * refuses leverage changes only; orders do not depend on it).
   */
  readonly maxLeverage: number | 'malformed';
  readonly maxLeverageText: string | undefined;
}

/** The uint8 bound of the wire's leverage. */
const UINT8_MAX = 255;

const cache = new WeakMap<MarketView['config'], MarketRules>();

/** The parsed rules, or a `market_config` refusal naming the first malformed step, tick or minimum size. */
export function marketRules(market: MarketView): MarketRules {
  const config = market.config;
  const cached = cache.get(config);
  if (cached !== undefined && sameTexts(cached, config)) return cached;
  const rules = parseRules(config);
  cache.set(config, rules);
  return rules;
}

function sameTexts(rules: MarketRules, config: MarketView['config']): boolean {
  return (
    rules.stepText === config.step_size &&
    rules.tickText === config.step_price &&
    rules.minSizeText === config.min_order_size &&
    rules.maxLeverageText === config.max_leverage
  );
}

function parseRules(config: MarketView['config']): MarketRules {
  const { step_size, step_price, min_order_size, max_leverage } = config;
  const step = positive(step_size, 'step_size');
  const tick = positive(step_price, 'step_price');
  if (!isDecimalString(min_order_size) || min_order_size.startsWith('-')) {
    refuse('market_config', min_order_size, 'the market reports a malformed min_order_size');
  }
  return Object.freeze({
    step,
    stepText: step_size,
    tick,
    tickText: step_price,
    minSize: parseDecimal(min_order_size, 'min_order_size'),
    minSizeText: min_order_size,
    maxLeverage: leverageCap(max_leverage),
    maxLeverageText: max_leverage,
  });
}

function positive(text: string, name: 'step_size' | 'step_price'): FixedPoint {
  const value = isDecimalString(text) ? parseDecimal(text, name) : undefined;
  if (value === undefined || value.units <= 0n) {
    refuse('market_config', text, `the market reports a non-positive or malformed ${name}`);
  }
  return value;
}

function leverageCap(text: string | undefined): number | 'malformed' {
  if (text === undefined) return UINT8_MAX;
  if (!isDecimalString(text) || text.startsWith('-')) return 'malformed';
  const value = parseDecimal(text, 'max_leverage');
  const whole = value.units / 10n ** BigInt(value.scale);
  return whole < BigInt(UINT8_MAX) ? Number(whole) : UINT8_MAX;
}
