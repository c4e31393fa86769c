import { type FixedPoint, parseDecimal } from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';
import { openPosition, type AccountState } from '../tracking/accountState.js';
import type { PreTradeConfig } from '../config/engineConfig.js';
import {
  oppositeSide,
  type ClosePositionIntent,
  type PlaceLimitIntent,
  type PlaceMarketIntent,
  type Side,
  type StpMode,
} from '../intents/intents.js';
import { compareFixed } from './fixedPoint.js';
import type { MarketRules } from './marketRules.js';
import type { MarketView } from './marketView.js';
import { snapPrice, snapSize } from './orderGrid.js';
import { refuse } from '../intents/refusal.js';
import { slippageBound } from './slippageBound.js';
import {
  ORDER_TYPE_CODE,
  SIDE_CODE,
  STP_MODE_CODE,
  TIME_IN_FORCE_CODE,
  type WireAction,
  type WireOrder,
} from './wireAction.js';

/**
 * Order intents to wire orders, on the market's rules as parsed once (`marketRules`). Market-level
 * flags are checked by the caller first.
 */

type PlaceOrderAction = Extract<WireAction, { action: 'placeOrder' }>;

/** A placement that passed: its wire action and the exact values of its size and price texts. */
export interface CheckedPlacement {
  readonly action: PlaceOrderAction;
  /** Snapped to the market's step. */
  readonly size: FixedPoint;
  /** Snapped to the market's tick; undefined for a market order (its price is the slippage bound). */
  readonly limitPrice: FixedPoint | undefined;
}

const UINT64_MAX = uintMax(64);
const UINT16_MAX = 65_535;

export function checkPlaceLimit(
  intent: PlaceLimitIntent,
  market: MarketView,
  rules: MarketRules,
  account: AccountState,
  config: PreTradeConfig,
): CheckedPlacement {
  checkSide(intent.side);
  const tif = intent.timeInForce;
  if (!(tif in TIME_IN_FORCE_CODE)) refuse('time_in_force', tif, 'time_in_force must be GTC, GTT, FOK or IOC');
  if (intent.postOnly && (tif === 'FOK' || tif === 'IOC')) {
    refuse('post_only', tif, 'a post-only order rests on the book, so it cannot be FOK or IOC');
  }
  if (market.post_only === true && !intent.postOnly) {
    refuse('market_post_only', intent.marketId, 'this market accepts only post-only orders', 'set postOnly');
  }
  const size = snapSize(intent.size, rules, intent.sizeRounding);
  const price = snapPrice(intent.price, rules, intent.priceRounding);
  if (intent.reduceOnly) checkReduces(intent.side, size.snapped, size.value, intent.marketId, account);
  const order = withOptionalFields(
    {
      market_id: intent.marketId,
      size_steps: size.units,
      price_ticks: price.units,
      side: SIDE_CODE[intent.side],
      post_only: intent.postOnly,
      reduce_only: intent.reduceOnly,
      stp_mode: stpCode(intent.stpMode ?? config.defaultStpMode),
      order_type: ORDER_TYPE_CODE.limit,
      time_in_force: TIME_IN_FORCE_CODE[tif],
    },
    clientOrderId(intent.clientOrderId),
    ttlUnits(tif, intent.ttlUnits),
  );
  return {
    action: { action: 'placeOrder', order, size: size.snapped, price: price.snapped },
    size: size.value,
    limitPrice: price.value,
  };
}

export function checkPlaceMarket(
  intent: PlaceMarketIntent,
  market: MarketView,
  rules: MarketRules,
  account: AccountState,
  config: PreTradeConfig,
): CheckedPlacement {
  checkSide(intent.side);
  // The type has no postOnly, but plugins are plain JS at runtime: say no rather than drop it.
  if ((intent as { postOnly?: unknown }).postOnly === true) {
    refuse('post_only', true, 'post-only applies only to limit orders; a market order takes liquidity');
  }
  const size = snapSize(intent.size, rules, intent.sizeRounding);
  if (intent.reduceOnly) checkReduces(intent.side, size.snapped, size.value, intent.marketId, account);
  const action = marketOrder(intent, intent.side, size.units, size.snapped, intent.reduceOnly, market, rules, config);
  return { action, size: size.value, limitPrice: undefined };
}

/** The whole position, reduce-only, at the market: exactly its size, never rounded. */
export function checkClosePosition(
  intent: ClosePositionIntent,
  market: MarketView,
  rules: MarketRules,
  account: AccountState,
  config: PreTradeConfig,
): CheckedPlacement {
  const position = openPosition(account, intent.marketId);
  if (position === undefined)
    refuse('reduce_only', intent.marketId, 'there is no open position to close in this market');
  const side = oppositeSide(position.side);
  const size = snapSize(position.size, rules);
  const order = { ...intent, timeInForce: 'IOC' };
  const action = marketOrder(order, side, size.units, size.snapped, true, market, rules, config);
  return { action, size: size.value, limitPrice: undefined };
}

function marketOrder(
  intent: {
    readonly marketId: number;
    readonly timeInForce: string;
    readonly maxSlippageBps?: number;
    readonly stpMode?: StpMode;
    readonly clientOrderId?: bigint;
  },
  side: Side,
  sizeSteps: number,
  size: string,
  reduceOnly: boolean,
  market: MarketView,
  rules: MarketRules,
  config: PreTradeConfig,
): PlaceOrderAction {
  const tif = intent.timeInForce;
  if (tif !== 'FOK' && tif !== 'IOC') {
    refuse('time_in_force', tif, `market orders require FOK or IOC time_in_force, got ${tif}`);
  }
  if (market.post_only === true) {
    refuse(
      'market_post_only',
      intent.marketId,
      'this market accepts only post-only limit orders; a market order cannot rest',
    );
  }
  const bps = intent.maxSlippageBps ?? config.defaultMaxSlippageBps;
  if (bps > config.maxSlippageBpsLimit) {
    refuse('slippage', bps, `max slippage above the configured limit of ${config.maxSlippageBpsLimit} bps`);
  }
  const bound = slippageBound(side, market.mark_price, rules, bps);
  const order = withOptionalFields(
    {
      market_id: intent.marketId,
      size_steps: sizeSteps,
      price_ticks: bound.ticks,
      side: SIDE_CODE[side],
      post_only: false,
      reduce_only: reduceOnly,
      stp_mode: stpCode(intent.stpMode ?? config.defaultStpMode),
      order_type: ORDER_TYPE_CODE.market,
      time_in_force: TIME_IN_FORCE_CODE[tif],
    },
    clientOrderId(intent.clientOrderId),
    undefined,
  );
  return { action: 'placeOrder', order, size, price: bound.price };
}

/**
 * Reduce-only needs an open position on the other side, and an order larger than the position is
 * refused rather than capped: resizing silently would send an order the strategy did not ask for.
 */
function checkReduces(side: Side, size: string, exact: FixedPoint, marketId: number, account: AccountState): void {
  const position = openPosition(account, marketId);
  if (position === undefined) refuse('reduce_only', size, 'reduce-only needs an open position in this market');
  if (position.side === side) {
    refuse(
      'reduce_only',
      side,
      `reduce-only ${side} would grow the ${position.side} position; it must be on the opposite side`,
    );
  }
  if (compareFixed(exact, parseDecimal(position.size, 'position size')) > 0) {
    refuse(
      'reduce_only',
      size,
      `reduce-only size exceeds the open position of ${position.size}`,
      'use closePosition or a size up to the position',
    );
  }
}

function checkSide(side: unknown): void {
  if (side !== 'buy' && side !== 'sell') refuse('side', side, "side must be 'buy' or 'sell'");
}

function stpCode(mode: StpMode): 0 | 1 | 2 {
  const code = (STP_MODE_CODE as Record<string, 0 | 1 | 2 | undefined>)[mode];
  if (code === undefined) refuse('stp_mode', mode, 'stp mode must be expire_maker, expire_taker or expire_both');
  return code;
}

/** 0 would be indistinguishable from "absent" in the action hash, so it is refused. */
function clientOrderId(id: bigint | undefined): bigint | undefined {
  if (id === undefined) return undefined;
  if (typeof id !== 'bigint' || id < 1n || id > UINT64_MAX) {
    refuse(
      'client_order_id',
      id,
      `client_order_id must be a bigint from 1 to ${UINT64_MAX}`,
      'omit it instead of sending 0',
    );
  }
  return id;
}

/** ttl_units belongs to GTT and GTT needs it: an order without an expiry is GTC. */
function ttlUnits(tif: string, ttl: number | undefined): number | undefined {
  if (tif !== 'GTT') {
    if (ttl !== undefined) refuse('ttl_units', ttl, 'ttl_units applies only to GTT orders');
    return undefined;
  }
  if (ttl === undefined || !Number.isSafeInteger(ttl) || ttl < 1 || ttl > UINT16_MAX) {
    refuse('ttl_units', ttl, `a GTT order needs ttl_units from 1 to ${UINT16_MAX}`);
  }
  return ttl;
}

type MutableWireOrder = { -readonly [K in keyof WireOrder]: WireOrder[K] };

/** Optional fields set on the literal rather than spread into it (spreads are slow per intent). */
function withOptionalFields(
  order: MutableWireOrder,
  clientOrderId: bigint | undefined,
  ttlUnits: number | undefined,
): WireOrder {
  if (clientOrderId !== undefined) order.client_order_id = clientOrderId;
  if (ttlUnits !== undefined) order.ttl_units = ttlUnits;
  return order;
}
