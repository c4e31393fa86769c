import type { Address } from '../../core/address.js';
import { countUnits, weiToDecimal } from '../../core/decimal.js';
import { uintMax } from '../../core/integerRange.js';
import type { AllowanceBook } from '../chain/allowanceBook.js';
import type { Exchange } from '../exchange/exchange.js';
import type { ExchangeEvent } from '../exchange/exchangeEvents.js';
import { isExchangeRefusal } from '../exchange/exchangeRefusal.js';
import type { PlaceOrderParams } from '../exchange/exchangeRecords.js';
import { fillNotionalWei } from '../exchange/fillNotional.js';
import { notionalAtPriceWei, type MarketSpec } from '../exchange/markets.js';
import type { BlockStamp } from '../simContext.js';
import type { SimTpslOrder } from './simTpslOrder.js';
import type { TpslBook } from './tpslBook.js';
import { fires } from './tpslTrigger.js';

export interface TpslWatcherDeps {
  readonly book: TpslBook;
  readonly exchange: Exchange;
  readonly allowances: AllowanceBook;
  readonly operatorHub: Address;
  /** Trigger-to-execution lag, read at each trigger. */
  lagMs(): number;
  /** Mines the execution as one transaction of the account, published like any action's. */
  record(events: readonly ExchangeEvent[]): BlockStamp;
}

const TIME_IN_FORCE = { GTC: 0, GTT: 1, FOK: 2, IOC: 3 } as const;
const MAX_PRICE_TICKS = Number(uintMax(24));

/**
 * The venue's side of a TP/SL (venue-tpsl.md): at each block, an ACCEPTED order whose watched
 * price (the mark, or the last trade) reaches its stop becomes TRIGGERED; once the lag has passed
 * it executes as a reduce-only order of the account, through the exchange's own order path, so
 * order history, trade history and the fills channel show it as any order, and its fills spend
 * the OperatorHub budget. No budget (none granted, expired, or too little left for the order at
 * the mark) leaves it TRIGGERED with the reason, tried again at every block; nothing to reduce
 * cancels it.
 */
export class TpslWatcher {
  constructor(private readonly deps: TpslWatcherDeps) {}

  onBlock(block: BlockStamp): void {
    this.judge(block.timestampMs, () => block);
  }

  /**
   * Between blocks, at `nowMs`: a replay's blocks are its recorded oracle frames, so a recorded
   * trade and the execution lag are judged as they come. A trigger is then a transaction of its
   * own (`stamp` mines it); nothing is stamped while nothing fires.
   */
  between(nowMs: number, stamp: () => BlockStamp): void {
    this.judge(nowMs, stamp);
  }

  private judge(nowMs: number, stamp: () => BlockStamp): void {
    for (const order of [...this.deps.book.active()]) {
      if (order.status === 'TPSL_ORDER_STATUS_ACCEPTED') this.trigger(order, nowMs, stamp);
      if (order.status === 'TPSL_ORDER_STATUS_TRIGGERED' && (order.dueAtMs ?? 0) <= nowMs) this.execute(order, nowMs);
    }
  }

  private trigger(order: SimTpslOrder, nowMs: number, stamp: () => BlockStamp): void {
    const prices = this.deps.exchange.watchedPrices(order.marketId);
    const price = order.stopPriceOption === 'MARK_PRICE' ? prices.markWei : prices.lastTradeWei;
    if (price === undefined || !fires(order, order.stopPriceWei, price)) return;
    order.status = 'TPSL_ORDER_STATUS_TRIGGERED';
    order.triggeredAtMs = nowMs;
    order.triggeredPrice = weiToDecimal(price);
    order.triggerTxHash = stamp().txHash;
    order.dueAtMs = nowMs + this.deps.lagMs();
  }

  private execute(order: SimTpslOrder, nowMs: number): void {
    const { exchange } = this.deps;
    const market = exchange.marketSpec(order.marketId);
    if (market === undefined) return this.cancel(order, `market ${order.marketId} no longer exists`);
    const steps = this.stepsToExecute(order, market);
    if (typeof steps === 'string') return this.cancel(order, steps);
    const refusal = this.budgetRefusal(order, market, steps, nowMs);
    if (refusal !== undefined) {
      order.refusal = refusal;
      return;
    }
    let result;
    try {
      result = exchange.placeOrder(order.account, executionParams(order, steps), nowMs);
    } catch (error) {
      if (!isExchangeRefusal(error)) throw error;
      return this.cancel(order, error.text);
    }
    const stamp = this.deps.record(result.events);
    this.deps.allowances.spend(order.account, fillNotionalWei(order.account, result.events));
    order.status = 'TPSL_ORDER_STATUS_SUCCESS';
    order.triggeredTxHash = stamp.txHash;
    order.filledSize = result.filled_quantity;
    delete order.refusal;
  }

  /** Steps the execution reduces: the order's size (or share) clipped to the position; why not, as text. */
  private stepsToExecute(order: SimTpslOrder, market: MarketSpec): bigint | string {
    const steps = BigInt(this.deps.exchange.position(order.account, order.marketId).size_steps);
    const reducible = order.side === 'SELL' ? (steps > 0n ? steps : 0n) : steps < 0n ? -steps : 0n;
    if (reducible === 0n) return `nothing to reduce: no ${order.side === 'SELL' ? 'long' : 'short'} position`;
    const wanted =
      order.sizePercentBps > 0
        ? (reducible * BigInt(order.sizePercentBps)) / 10_000n
        : countUnits(order.size, market.definition.config.step_size, 'size');
    const chosen = wanted < reducible ? wanted : reducible;
    if (chosen === 0n) return `the share of ${order.sizePercentBps} bps of the position rounds to no step`;
    return chosen > uintMax(32) ? uintMax(32) : chosen;
  }

  /** Why the OperatorHub cannot pay for the execution now, or undefined when it can. */
  private budgetRefusal(order: SimTpslOrder, market: MarketSpec, steps: bigint, nowMs: number): string | undefined {
    const { allowances, exchange, operatorHub } = this.deps;
    const allowance = allowances.get(order.account);
    const nowSeconds = Math.floor(nowMs / 1000);
    if (allowance === undefined || allowance.expiry <= nowSeconds)
      return `AllowanceExpired(${order.account},${operatorHub}): grant the OperatorHub a budget with POST /v1/auth/approve-single`;
    const needed = notionalAtPriceWei(market, exchange.watchedPrices(order.marketId).markWei, steps);
    if (allowance.budgetWei >= needed) return undefined;
    return `AllowanceExhausted(${order.account},${operatorHub},${allowance.budgetWei},${needed}): the budget left is below the order's notional at the mark`;
  }

  private cancel(order: SimTpslOrder, reason: string): void {
    order.status = 'TPSL_ORDER_STATUS_CANCELLED';
    order.refusal = reason;
  }
}

/** The execution as the account's own reduce-only order: market IOC (FOK when asked), or the limit. */
function executionParams(order: SimTpslOrder, steps: bigint): PlaceOrderParams {
  const side = order.side === 'SELL' ? 1 : 0;
  const market = order.orderType === 'MARKET';
  return {
    market_id: order.marketId,
    size_steps: Number(steps),
    // A market order's price is its slippage bound: none, either way.
    price_ticks: market ? (side === 1 ? 0 : MAX_PRICE_TICKS) : order.limitTicks,
    side,
    post_only: false,
    reduce_only: true,
    stp_mode: 0,
    order_type: market ? 0 : 1,
    time_in_force: market ? (order.tif === 'FOK' ? 2 : 3) : TIME_IN_FORCE[order.tif],
  };
}
