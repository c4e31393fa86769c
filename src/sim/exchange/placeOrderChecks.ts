import { multiplyUnits } from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';
import { ExchangeRefusal, invalidArgument } from './exchangeRefusal.js';
import type { PlaceOrderParams } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';

/** Place params after every stateless venue rule passed; enums narrowed, ids as bigint. */
export interface CheckedOrder {
  readonly marketId: number;
  readonly sizeSteps: number;
  readonly priceTicks: number;
  readonly side: 0 | 1;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly stpMode: 0 | 1 | 2;
  readonly orderType: 0 | 1;
  readonly timeInForce: 0 | 1 | 2 | 3;
  readonly clientOrderId?: bigint;
  readonly ttlSeconds?: number;
}

const SIDES = ['0 (Buy)', '1 (Sell)'];
const ORDER_TYPES = ['0 (Market)', '1 (Limit)'];
const TIME_IN_FORCE = ['0 (GTC)', '1 (GTT)', '2 (FOK)', '3 (IOC)'];
const STP_MODES = ['0 (ExpireMaker)', '1 (ExpireTaker)', '2 (ExpireBoth)'];

function enumValue(value: number, names: readonly string[], field: string): number {
  if (!Number.isInteger(value) || value < 0 || value >= names.length) {
    throw invalidArgument(`${field} must be one of ${names.join(', ')}, got ${String(value)}`);
  }
  return value;
}

function uintValue(value: number | bigint, bits: number, field: string): void {
  const ok =
    typeof value === 'bigint'
      ? value >= 0n && value <= uintMax(bits)
      : Number.isSafeInteger(value) && value >= 0 && BigInt(value) <= uintMax(bits);
  if (!ok) throw invalidArgument(`${field} must be a uint${bits} (0 to ${uintMax(bits)}), got ${String(value)}`);
}

/**
 * The venue's stateless rules for a new order, in the order the venue reports them: field
 * ranges, enumerations, order-type/time-in-force combinations, market flags, min size. Rules
 * that need state (post-only crossing, reduce-only, margin) are the exchange's.
 */
export function checkPlaceOrder(market: MarketSpec | undefined, params: PlaceOrderParams): CheckedOrder {
  uintValue(params.market_id, 16, 'market_id');
  if (market === undefined) {
    throw new ExchangeRefusal('NotFound', `market ${params.market_id} does not exist`, [
      'list markets with GET /v1/markets',
    ]);
  }
  uintValue(params.size_steps, 32, 'size_steps');
  uintValue(params.price_ticks, 24, 'price_ticks');
  const side = enumValue(params.side, SIDES, 'side') as 0 | 1;
  const orderType = enumValue(params.order_type, ORDER_TYPES, 'order_type') as 0 | 1;
  const timeInForce = enumValue(params.time_in_force, TIME_IN_FORCE, 'time_in_force') as 0 | 1 | 2 | 3;
  const stpMode = enumValue(params.stp_mode, STP_MODES, 'stp_mode') as 0 | 1 | 2;
  if (params.size_steps === 0) throw invalidArgument('size_steps must be at least 1, got 0');
  checkTypeCombination(params, orderType, timeInForce);
  const ttl = params.ttl_units ?? 0;
  checkTtl(ttl, timeInForce);
  const clientOrderId = params.client_order_id ?? 0n;
  uintValue(clientOrderId, 64, 'client_order_id');
  checkMarketFlags(market, params);
  checkMinSize(market, params);
  return {
    marketId: market.marketId,
    sizeSteps: params.size_steps,
    priceTicks: params.price_ticks,
    side,
    postOnly: params.post_only,
    reduceOnly: params.reduce_only,
    stpMode,
    orderType,
    timeInForce,
    ...(clientOrderId === 0n ? {} : { clientOrderId }),
    ...(ttl === 0 ? {} : { ttlSeconds: ttl }),
  };
}

/** Order type against time in force, price and post-only. */
function checkTypeCombination(params: PlaceOrderParams, orderType: 0 | 1, timeInForce: 0 | 1 | 2 | 3): void {
  if (orderType === 0 && timeInForce !== 2 && timeInForce !== 3) {
    throw invalidArgument(`market orders require FOK or IOC time_in_force, got ${timeInForce}`);
  }
  if (orderType === 1 && params.price_ticks === 0)
    throw invalidArgument('limit orders need price_ticks of at least 1, got 0');
  if (params.post_only && (orderType === 0 || timeInForce === 2 || timeInForce === 3)) {
    throw invalidArgument(
      `post_only orders must be limit orders with GTC or GTT time_in_force, got order_type ${orderType} time_in_force ${timeInForce}`,
    );
  }
}

/** ttl_units (0 = none) is required by GTT and refused with anything else. */
function checkTtl(ttl: number, timeInForce: 0 | 1 | 2 | 3): void {
  uintValue(ttl, 16, 'ttl_units');
  if (timeInForce === 1 && ttl === 0) throw invalidArgument('GTT orders need ttl_units (seconds) of at least 1, got 0');
  if (timeInForce !== 1 && ttl !== 0)
    throw invalidArgument(`ttl_units is only valid with GTT (time_in_force 1), got time_in_force ${timeInForce}`);
}

/** The market's min_order_size; reduce-only orders are exempt from it. */
function checkMinSize(market: MarketSpec, params: PlaceOrderParams): void {
  if (params.reduce_only || BigInt(params.size_steps) >= market.minOrderSteps) return;
  const stepSize = market.definition.config.step_size;
  throw invalidArgument(
    `order size ${multiplyUnits(BigInt(params.size_steps), stepSize)} (size_steps ${params.size_steps}) is below min_order_size ${market.definition.config.min_order_size} of market ${market.marketId}`,
  );
}

function checkMarketFlags(market: MarketSpec, params: PlaceOrderParams): void {
  const name = `market ${market.marketId} (${market.definition.display_name})`;
  if (!market.definition.active) throw new ExchangeRefusal('FailedPrecondition', `${name} is not active`);
  if (!market.definition.config.unlocked) throw new ExchangeRefusal('FailedPrecondition', `${name} is locked`);
  if (market.definition.reduce_only && !params.reduce_only) {
    throw new ExchangeRefusal('FailedPrecondition', `${name} accepts reduce-only orders only`);
  }
  if (market.definition.post_only && !params.post_only) {
    throw new ExchangeRefusal('FailedPrecondition', `${name} accepts post-only orders only`);
  }
}
