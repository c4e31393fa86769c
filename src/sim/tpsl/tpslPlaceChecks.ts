import { countUnits, decimalToWei, normalizeDecimal } from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import type { PlaceTpslBody } from '../../venue/schemas/restTpslAccepted.js';
import type { MarketSpec } from '../exchange/markets.js';
import { invalidArgument, SimRefusal } from '../simRefusal.js';
import type { NewTpslOrder } from './simTpslOrder.js';

/**
 * The venue's rules for a new TP/SL beyond the body's shape, in the order they are reported: the
 * market, the size on its step grid (reduce-only: no minimum), the stop price, then the limit
 * price on the tick grid for a LIMIT execution. Texts are the simulator's own: the venue's are not
 * shown (docs/spec-gaps/simulator.md "TP/SL orders in the simulator").
 */
export function checkTpslOrder(market: MarketSpec | undefined, body: PlaceTpslBody, nowMs: number): NewTpslOrder {
  if (market === undefined)
    throw new SimRefusal(400, 'NotFound', `market ${body.market_id} does not exist; list markets with GET /v1/markets`);
  const name = `market ${market.marketId} (${market.definition.display_name})`;
  if (!market.definition.active) throw new SimRefusal(400, 'FailedPrecondition', `${name} is not active`);
  if (!market.definition.config.unlocked) throw new SimRefusal(400, 'FailedPrecondition', `${name} is locked`);
  const sizePercentBps = body.size_percent_bps ?? 0;
  const size = checkedSize(market, body.size, sizePercentBps);
  const limit = checkedLimit(market, body);
  return {
    account: body.account,
    marketId: market.marketId,
    side: body.side,
    size,
    sizePercentBps,
    stopType: body.stop_type,
    orderType: body.order_type,
    stopPrice: normalizeDecimal(body.stop_price, 'stop_price'),
    stopPriceWei: onGrid(
      () => decimalToWei(body.stop_price, 'stop_price'),
      'stop_price',
      body.stop_price,
      'at most 18 decimals',
    ),
    limitPrice: limit.price,
    limitTicks: limit.ticks,
    stopPriceOption: body.stop_price_option,
    tif: body.tif,
    createdAtMs: nowMs,
  };
}

function checkedSize(market: MarketSpec, text: string, sizePercentBps: number): string {
  const size = normalizeDecimal(text, 'size');
  if (size === '0') {
    if (sizePercentBps > 0) return size;
    throw invalidArgument('size must be positive, or "0" with size_percent_bps 1 to 10000 (a share of the position)');
  }
  const stepSize = market.definition.config.step_size;
  onGrid(
    () => countUnits(size, stepSize, 'size'),
    'size',
    text,
    `a whole multiple of step_size ${stepSize} of market ${market.marketId}`,
  );
  return size;
}

function checkedLimit(market: MarketSpec, body: PlaceTpslBody): { price: string; ticks: number } {
  const price = normalizeDecimal(body.limit_price, 'limit_price');
  // A market execution takes no limit: "0" is what every source sends, and any other value is ignored.
  if (body.order_type === 'MARKET') return { price, ticks: 0 };
  if (price === '0') throw invalidArgument('limit_price must be positive for a LIMIT execution, got 0');
  if (body.tif === 'GTT')
    throw invalidArgument('tif GTT needs an expiry, which a TP/SL order does not carry: use GTC, FOK or IOC');
  const stepPrice = market.definition.config.step_price;
  const ticks = onGrid(
    () => countUnits(price, stepPrice, 'limit_price'),
    'limit_price',
    body.limit_price,
    `a whole multiple of step_price ${stepPrice} of market ${market.marketId}`,
  );
  if (ticks > uintMax(24))
    throw invalidArgument(`limit_price ${price} is ${ticks} ticks, above the uint24 price_ticks limit ${uintMax(24)}`);
  return { price, ticks: Number(ticks) };
}

/** Runs a grid conversion; its failure becomes InvalidArgument naming the field, the value and the rule. */
function onGrid<T>(convert: () => T, field: string, value: string, rule: string): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof InvalidValueError) throw invalidArgument(`${field} must be ${rule}, got ${value}`);
    throw error;
  }
}
