import { multiplyUnits, weiToDecimal } from '../../core/decimal.js';
import type { BookLevel, BookSnapshot, MarketRecord } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';
import type { OrderBook, TickLevel } from './orderBook.js';
import { BoundedMap } from '../../core/boundedMap.js';

/** A market's book as aggregated decimal levels: bids descending, asks ascending. */
export function bookSnapshot(market: MarketSpec, book: OrderBook, depth?: number): BookSnapshot {
  const texts = levelTexts(market);
  const level = (l: TickLevel): BookLevel => decimalLevel(l, texts);
  return { market_id: market.marketId, bids: book.levels(0, depth).map(level), asks: book.levels(1, depth).map(level) };
}

/** A level in ticks and steps as the wire shows it: decimal price and quantity (a gone level's "0"). */
export function decimalLevel(level: TickLevel, texts: LevelTexts): BookLevel {
  return { price: texts.price(level.priceTicks), quantity: texts.quantity(level.steps), order_count: level.orderCount };
}

/** A market's level prices and sizes as decimals (the wire's) and as integer wei texts (the checksum's). */
export interface LevelTexts {
  price(ticks: number): string;
  quantity(steps: bigint): string;
  priceWei(ticks: number): string;
  quantityWei(steps: bigint): string;
}

/**
 * A market's level prices and sizes as texts, remembered: the orderbook channel converts the
 * levels of every update and checksums the whole book, and a book repeats a few hundred prices
 * and sizes. Wei texts are ticks times the tick's wei (the wei of the decimal price, exactly).
 */
const levelTextsByMarket = new WeakMap<MarketSpec, LevelTexts>();
/** Distinct values a market's cache holds before it starts again. */
const MAX_LEVEL_TEXTS = 10_000;

export function levelTexts(market: MarketSpec): LevelTexts {
  let texts = levelTextsByMarket.get(market);
  if (texts === undefined) {
    const { step_price: stepPrice, step_size: stepSize } = market.definition.config;
    const priceWei = remembered((ticks: number) => (BigInt(ticks) * market.tickWei).toString());
    const quantityWei = bySteps(remembered((steps: bigint | number) => (BigInt(steps) * market.stepWei).toString()));
    texts = {
      price: remembered((ticks: number) => multiplyUnits(BigInt(ticks), stepPrice)),
      quantity: bySteps(remembered((steps: bigint | number) => multiplyUnits(BigInt(steps), stepSize))),
      priceWei,
      quantityWei,
    };
    levelTextsByMarket.set(market, texts);
  }
  return texts;
}

/** Keyed by a number where the steps fit one: a Map hashes a number much faster than a bigint. */
function bySteps(texts: (steps: bigint | number) => string): (steps: bigint) => string {
  return (steps) => texts(steps <= MAX_SAFE_STEPS ? Number(steps) : steps);
}

const MAX_SAFE_STEPS = BigInt(Number.MAX_SAFE_INTEGER);

function remembered<K>(compute: (key: K) => string): (key: K) => string {
  const known = new BoundedMap<K, string>(MAX_LEVEL_TEXTS);
  return (key) => known.remember(key, compute);
}

/** A market as GET /v1/markets shows it; `last_price` is the mark until the first trade. */
export function marketRecord(
  market: MarketSpec,
  markWei: bigint,
  indexWei: bigint,
  lastTradeTicks: number | undefined,
): MarketRecord {
  const d = market.definition;
  const mark = weiToDecimal(markWei);
  return {
    market_id: String(market.marketId),
    display_name: d.display_name,
    mark_price: mark,
    index_price: weiToDecimal(indexWei),
    last_price: lastTradeTicks === undefined ? mark : multiplyUnits(BigInt(lastTradeTicks), d.config.step_price),
    active: d.active,
    post_only: d.post_only,
    reduce_only: d.reduce_only,
    config: { ...d.config },
  };
}
