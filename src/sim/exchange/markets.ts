import { countUnits, decimalToWei, parseDecimal, pow10, type FixedPoint } from '../../core/decimal.js';
import { InvalidValueError } from '../../core/invalidValueError.js';

/**
 * The simulator's markets, as data in the venue's own shape (GET /v1/markets plus the venue-facts
 * extras). Callers may pass their own list; `compileMarket` derives the exact integer grid once.
 */
export interface MarketDefinition {
  readonly market_id: number;
  readonly display_name: string;
  readonly active: boolean;
  /** Only post-only orders are accepted. */
  readonly post_only: boolean;
  /** Only reduce-only orders are accepted. */
  readonly reduce_only: boolean;
  /** Starting mark (and index) price, a decimal string. */
  readonly initial_mark_price: string;
  readonly config: {
    readonly name: string;
    readonly step_size: string;
    readonly step_price: string;
    readonly min_order_size: string;
    readonly max_leverage: string;
    readonly maintenance_margin_factor: string;
    readonly unlocked: boolean;
  };
}

export const DEFAULT_MARKETS: readonly MarketDefinition[] = Object.freeze([
  {
    market_id: 1,
    display_name: 'BTC/USDC',
    active: true,
    post_only: false,
    reduce_only: false,
    initial_mark_price: '65000',
    config: {
      name: 'BTC/USDC',
      step_size: '0.00001',
      step_price: '0.1',
      min_order_size: '0.00015',
      max_leverage: '50',
      maintenance_margin_factor: '0.01',
      unlocked: true,
    },
  },
  {
    market_id: 2,
    display_name: 'ETH/USDC',
    active: true,
    post_only: false,
    reduce_only: false,
    initial_mark_price: '3200',
    config: {
      name: 'ETH/USDC',
      step_size: '0.0001',
      step_price: '0.01',
      min_order_size: '0.001',
      max_leverage: '25',
      maintenance_margin_factor: '0.02',
      unlocked: true,
    },
  },
  {
    market_id: 3,
    display_name: 'SOL/USDC',
    active: true,
    post_only: false,
    reduce_only: false,
    initial_mark_price: '150',
    config: {
      name: 'SOL/USDC',
      step_size: '0.01',
      step_price: '0.001',
      min_order_size: '0.1',
      max_leverage: '20',
      maintenance_margin_factor: '0.025',
      unlocked: true,
    },
  },
  {
    market_id: 4,
    display_name: 'DOGE/USDC',
    active: false,
    post_only: false,
    reduce_only: false,
    initial_mark_price: '0.12',
    config: {
      name: 'DOGE/USDC',
      step_size: '1',
      step_price: '0.00001',
      min_order_size: '10',
      max_leverage: '10',
      maintenance_margin_factor: '0.05',
      unlocked: false,
    },
  },
]);

/** A market with its grid as exact integers, ready for the matching and margin arithmetic. */
export interface MarketSpec {
  readonly marketId: number;
  readonly definition: MarketDefinition;
  readonly stepSize: FixedPoint;
  readonly stepPrice: FixedPoint;
  /** One tick in wei (18 decimals). */
  readonly tickWei: bigint;
  /** One size step in wei (18 decimals). */
  readonly stepWei: bigint;
  /** 10^(size decimals): divides price wei × step units into USD wei. */
  readonly sizeDivisor: bigint;
  /** ticks × steps × this = notional in USD wei, exactly. */
  readonly notionalPerTickStep: bigint;
  /** Smallest accepted order, in steps (min_order_size rounded up to the grid). */
  readonly minOrderSteps: bigint;
  /** config.maintenance_margin_factor: maintenance margin as a fraction of notional at the mark. */
  readonly maintenanceFactor: FixedPoint;
  /** max_leverage rounded down, at most 255 (uint8). */
  readonly maxLeverage: number;
  readonly tradable: boolean;
}

/**
 * Notional in USD wei of `steps` at `ticks` is ticks × steps × (tickUnits × stepUnits) ×
 * 10^(18 − priceScale − sizeScale): exact only when the two grids together need at most 18
 * decimals, which is checked here so no notional is ever rounded.
 */
export function compileMarket(definition: MarketDefinition): MarketSpec {
  const field = `markets[${definition.market_id}]`;
  if (!Number.isInteger(definition.market_id) || definition.market_id < 1 || definition.market_id > 65_535) {
    throw new InvalidValueError(`${field}.market_id`, definition.market_id, '1 to 65535 (market ids fit in 16 bits)');
  }
  const stepSize = parseDecimal(definition.config.step_size, `${field}.config.step_size`);
  const stepPrice = parseDecimal(definition.config.step_price, `${field}.config.step_price`);
  if (stepSize.units <= 0n)
    throw new InvalidValueError(`${field}.config.step_size`, definition.config.step_size, 'a positive decimal');
  if (stepPrice.units <= 0n)
    throw new InvalidValueError(`${field}.config.step_price`, definition.config.step_price, 'a positive decimal');
  if (stepSize.scale + stepPrice.scale > 18) {
    throw new InvalidValueError(
      `${field}.config`,
      `${definition.config.step_size} × ${definition.config.step_price}`,
      'step_size and step_price with at most 18 decimals together',
      'the simulator keeps money in exact USD wei; a finer grid would need rounding',
    );
  }
  const minOrderSteps = countUnits(
    definition.config.min_order_size,
    definition.config.step_size,
    `${field}.config.min_order_size`,
    'up',
  );
  const maxLeverageUnits = countUnits(definition.config.max_leverage, '1', `${field}.config.max_leverage`, 'down');
  if (maxLeverageUnits < 1n)
    throw new InvalidValueError(`${field}.config.max_leverage`, definition.config.max_leverage, 'at least 1');
  decimalToWei(definition.initial_mark_price, `${field}.initial_mark_price`);
  return {
    marketId: definition.market_id,
    definition,
    stepSize,
    stepPrice,
    tickWei: stepPrice.units * pow10(18 - stepPrice.scale),
    stepWei: stepSize.units * pow10(18 - stepSize.scale),
    sizeDivisor: pow10(stepSize.scale),
    notionalPerTickStep: stepPrice.units * stepSize.units * pow10(18 - stepPrice.scale - stepSize.scale),
    minOrderSteps: minOrderSteps < 1n ? 1n : minOrderSteps,
    maintenanceFactor: parseDecimal(
      definition.config.maintenance_margin_factor,
      `${field}.config.maintenance_margin_factor`,
    ),
    maxLeverage: Number(maxLeverageUnits > 255n ? 255n : maxLeverageUnits),
    tradable: definition.active && definition.config.unlocked,
  };
}

/** Exact notional of `steps` at `ticks`, in USD wei. */
export function notionalWei(market: MarketSpec, ticks: bigint, steps: bigint): bigint {
  return ticks * steps * market.notionalPerTickStep;
}

/** Notional of `steps` at a wei price, rounded toward −infinity to whole USD wei. */
export function notionalAtPriceWei(market: MarketSpec, priceWei: bigint, steps: bigint): bigint {
  const numerator = priceWei * steps * market.stepSize.units;
  const denominator = market.sizeDivisor;
  const q = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n ? q - 1n : q;
}

export function compileMarkets(definitions: readonly MarketDefinition[]): ReadonlyMap<number, MarketSpec> {
  const byId = new Map<number, MarketSpec>();
  for (const definition of definitions) {
    if (byId.has(definition.market_id)) {
      throw new InvalidValueError('markets', definition.market_id, 'unique market ids');
    }
    byId.set(definition.market_id, compileMarket(definition));
  }
  return byId;
}
