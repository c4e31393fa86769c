import type { MarketWire, OpenOrderWire } from '../../venue/schemas/restCanonical.js';
import type { MarketRecord, OrderRecord } from '../exchange/exchangeRecords.js';

/**
 * A market and an open order in the venue's shape (venue-wire.md §2, rest-markets.fb.json and
 * the open-orders row). The simulator has no funding, no 24-hour window and no open-interest
 * cap: those fields say "0" (the venue's own value for an unset limit, display_at and funding
 * in the capture), and high/low are the last price.
 */

/** One hour in nanoseconds: the venue's funding_interval in the capture. */
const FUNDING_INTERVAL_NS = 3_600_000_000_000n;

export function marketWire(record: MarketRecord, quote: string, nowMs: number): MarketWire {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const nextFunding = (nowNs / FUNDING_INTERVAL_NS + 1n) * FUNDING_INTERVAL_NS;
  const symbol = record.config.name;
  return {
    market_id: record.market_id,
    config: {
      name: record.config.name,
      quote,
      step_size: record.config.step_size,
      step_price: record.config.step_price,
      maintenance_margin_factor: record.config.maintenance_margin_factor,
      max_leverage: record.config.max_leverage,
      min_order_size: record.config.min_order_size,
      unlocked: record.config.unlocked,
      open_interest_limit: '0',
    },
    base_asset_symbol: symbol,
    quote_asset_symbol: 'USDC',
    underlying: symbol,
    display_name: record.display_name,
    quote_volume_24h: '0',
    change_24h: '0',
    high_24h: record.last_price,
    low_24h: record.last_price,
    last_price: record.last_price,
    mark_price: record.mark_price,
    index_price: record.index_price,
    max_position_size: '0',
    open_interest: '0',
    funding_interval: FUNDING_INTERVAL_NS.toString(),
    next_funding_time: nextFunding.toString(),
    post_only: record.post_only,
    last_cumulative_funding: '0',
    predicted_funding_rate: '0',
    display_base_asset_symbol: symbol,
    accumulated_funding: '0',
    current_funding_rate: '0',
    funding_rate_8h: '0',
    active: record.active,
    category: 'crypto',
    search_tags: ['crypto'],
    is_new: false,
    reduce_only: record.reduce_only,
    display_at: '0',
  };
}

/** A row of GET /v1/orders/open: the order's identity and terms, no fill progress. */
export function openOrderWire(order: OrderRecord): OpenOrderWire {
  return {
    order_id: order.order_id,
    market_id: order.market_id,
    account: order.account,
    wide_order_id: order.wide_order_id,
    resting_order_id: order.resting_order_id,
    side: order.side,
    size_steps: order.size_steps,
    price_ticks: order.price_ticks,
    order_type: order.order_type,
    time_in_force: order.time_in_force,
    post_only: order.post_only,
    reduce_only: order.reduce_only,
    client_order_id: order.client_order_id ?? '',
  };
}
