import { multiplyUnits, weiToDecimal } from '../../core/decimal.js';
import type { BookLevel, BookSnapshot, MarketRecord } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';
import type { OrderBook } from './orderBook.js';

/** A market's book as aggregated decimal levels: bids descending, asks ascending. */
export function bookSnapshot(market: MarketSpec, book: OrderBook, depth?: number): BookSnapshot {
  const level = (l: { priceTicks: number; steps: bigint; orderCount: number }): BookLevel => ({
    price: multiplyUnits(BigInt(l.priceTicks), market.definition.config.step_price),
    quantity: multiplyUnits(l.steps, market.definition.config.step_size),
    order_count: l.orderCount,
  });
  return { market_id: market.marketId, bids: book.levels(0, depth).map(level), asks: book.levels(1, depth).map(level) };
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
