import type { Address } from '../../core/address.js';
import { divideRounded, fixedToDecimal, weiToDecimal } from '../../core/decimal.js';
import type { AccountLedger } from './accountLedger.js';
import type { EventCollector } from './eventCollector.js';
import { reverted } from './exchangeRefusal.js';
import { fillRecord, tradeRecord, type ExecutionPrint } from './executionRecords.js';
import { notionalWei, type MarketSpec } from './markets.js';
import { fillableSteps, matchOrder, type MatchContext, type MatchStop } from './matchOrder.js';
import { wideOrderId } from './orderIds.js';
import type { OrderBook } from './orderBook.js';
import type { OrderStore } from './orderStore.js';
import type { CheckedOrder } from './placeOrderChecks.js';
import { reducibleSteps } from './positionMath.js';
import type { SimIdBases } from './simIdBases.js';
import { newSimOrder, remainingSteps, toOrderRecord, type SimOrder } from './simOrder.js';

export interface OrderEntryDeps {
  readonly store: OrderStore;
  readonly ledger: AccountLedger;
  market(marketId: number): MarketSpec;
  readonly makerFeeBps: bigint;
  readonly takerFeeBps: bigint;
  /** Called with each trade's price so the market can report last_price. */
  onTrade(marketId: number, priceTicks: number): void;
  /** Where order sequences, fill ids and trade ids count from (unique across runs, or from 1). */
  readonly ids: SimIdBases;
}

/**
 * Order placement, matching, fills and cancels: the stateful venue rules (reduce-only,
 * post-only, margin), then the matching walk, then what happens to the remainder.
 */
export class OrderEntry {
  private sequence: bigint;
  private tradeSequence: bigint;
  private fillSequence: bigint;

  constructor(private readonly deps: OrderEntryDeps) {
    this.sequence = deps.ids.order;
    this.tradeSequence = deps.ids.trade;
    this.fillSequence = deps.ids.fill;
  }

  place(account: Address, checked: CheckedOrder, nowMs: number, events: EventCollector): SimOrder {
    const market = this.deps.market(checked.marketId);
    const sizeSteps = checked.reduceOnly ? this.reduceOnlySize(account, checked) : checked.sizeSteps;
    if (checked.postOnly) this.refuseCrossingPostOnly(checked, nowMs);
    if (!checked.reduceOnly) this.checkMargin(account, checked, sizeSteps);
    // Every refusal is behind us: only now change state. Orders past their GTT expiry leave the
    // book first, so the new order never rests against (or trades with) an expired one.
    this.expireDue(checked.marketId, nowMs, events);

    const order = this.newOrder(account, checked, sizeSteps, nowMs);
    this.deps.store.track(order);
    const context = this.matchContext(checked.marketId, nowMs, events);
    if (order.timeInForce === 2 && fillableSteps(context, order) < order.sizeSteps) {
      this.finish(order, 'ORDER_STATUS_CANCELLED', market, events);
      return order;
    }
    this.settleRemainder(order, matchOrder(context, order), market, events);
    return order;
  }

  /** A reduce-only order's size: refused when it would not reduce, clipped to the position. */
  private reduceOnlySize(account: Address, checked: CheckedOrder): number {
    const position = this.deps.ledger.position(account, checked.marketId).sizeSteps;
    const reducible = reducibleSteps(position, checked.side);
    if (reducible === 0n) {
      throw reverted(
        'PlaceOrder',
        'ReduceOnlyWouldIncrease',
        [position],
        'a reduce-only order must be on the side opposite to the open position',
      );
    }
    // Venue choice: a reduce-only order larger than the position is clipped to it.
    return BigInt(checked.sizeSteps) > reducible ? Number(reducible) : checked.sizeSteps;
  }

  /** A post-only order that would trade on entry is refused (expired orders are no liquidity). */
  private refuseCrossingPostOnly(checked: CheckedOrder, nowMs: number): void {
    const book = this.deps.store.book(checked.marketId);
    const best = firstLive(book.orders(checked.side === 0 ? 1 : 0), nowMs);
    const wouldCross =
      best !== undefined &&
      (checked.side === 0 ? best.priceTicks <= checked.priceTicks : best.priceTicks >= checked.priceTicks);
    if (wouldCross) {
      throw reverted(
        'PlaceOrder',
        'PostOnlyWouldCross',
        [checked.priceTicks, best.priceTicks],
        'price a post-only order behind the best opposite price',
      );
    }
  }

  /** The new order, with the next sequence (and so the next order id). */
  newOrder(account: Address, checked: CheckedOrder, sizeSteps: number, nowMs: number): SimOrder {
    this.sequence += 1n;
    return newSimOrder(this.sequence, wideOrderId(this.sequence, checked.side), account, checked, sizeSteps, nowMs);
  }

  /** After the walk: filled; resting when a GTC or GTT limit order no longer crosses; else cancelled. */
  private settleRemainder(order: SimOrder, stop: MatchStop, market: MarketSpec, events: EventCollector): void {
    if (remainingSteps(order) === 0) {
      this.finish(order, 'ORDER_STATUS_FILLED', market, events);
    } else if (stop === 'no_cross' && order.orderType === 1 && (order.timeInForce === 0 || order.timeInForce === 1)) {
      this.deps.store.rest(order);
      events.touchBook(order.marketId);
      events.push({
        type: 'order',
        account: order.account,
        market_id: order.marketId,
        order: toOrderRecord(order, market),
      });
    } else {
      this.finish(order, 'ORDER_STATUS_CANCELLED', market, events);
    }
  }

  /**
   * `steps` of the resting `maker` trade with `counterparty`, as an IOC taker at the maker's price
   * would: a recorded trade that reached the order in a replay. Fees, ledger and events as any fill.
   */
  fillAgainst(maker: SimOrder, counterparty: Address, steps: number, nowMs: number, events: EventCollector): void {
    const taker = this.newOrder(
      counterparty,
      {
        marketId: maker.marketId,
        sizeSteps: steps,
        priceTicks: maker.priceTicks,
        side: maker.side === 0 ? 1 : 0,
        postOnly: false,
        reduceOnly: false,
        stpMode: 0,
        orderType: 1,
        timeInForce: 3,
      },
      steps,
      nowMs,
    );
    this.deps.store.track(taker);
    this.fill(maker, taker, steps, nowMs, events);
    taker.status = 'ORDER_STATUS_FILLED';
    this.deps.store.retire(taker);
  }

  /** Cancels every order of the market whose GTT expiry is at or before `nowMs`, oldest first. */
  expireDue(marketId: number, nowMs: number, events: EventCollector): void {
    const book = this.deps.store.book(marketId);
    // Most books hold no GTT order at all: then there is nothing to walk.
    if (book.expiringCount === 0) return;
    const due: SimOrder[] = [];
    for (const side of [0, 1] as const) {
      for (const order of book.orders(side))
        if (order.expiresAtMs !== undefined && order.expiresAtMs <= nowMs) due.push(order);
    }
    due.sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
    for (const order of due) this.cancel(order, events);
  }

  cancel(order: SimOrder, events: EventCollector): void {
    this.finish(order, 'ORDER_STATUS_CANCELLED', this.deps.market(order.marketId), events);
    events.touchBook(order.marketId);
  }

  private checkMargin(account: Address, checked: CheckedOrder, sizeSteps: number): void {
    const extra = { side: checked.side, sizeSteps, filledSteps: 0, priceTicks: checked.priceTicks, reduceOnly: false };
    const pool = this.deps.ledger.pool(account, checked.marketId, extra);
    if (pool.marginAfterWei > pool.marginWei && pool.marginAfterWei > pool.equityWei) {
      throw reverted(
        'PlaceOrder',
        'InsufficientMargin',
        [pool.marginAfterWei, pool.equityWei],
        'amounts are USD wei (18 decimals): required initial margin, then equity; deposit, raise leverage or shrink the order',
      );
    }
  }

  private matchContext(marketId: number, nowMs: number, events: EventCollector): MatchContext {
    return new PlacementMatch(this, this.deps.store.book(marketId), marketId, nowMs, events);
  }

  /** Steps of `side` the account can trade in the market without increasing or flipping its position. */
  reducible(account: Address, marketId: number, side: 0 | 1): bigint {
    return reducibleSteps(this.deps.ledger.position(account, marketId).sizeSteps, side);
  }

  /** Executes `steps` between a resting maker and a taker at the maker's price (the matching walk's `fill`). */
  fill(maker: SimOrder, taker: SimOrder, steps: number, nowMs: number, events: EventCollector): void {
    const market = this.deps.market(maker.marketId);
    const priceWei = BigInt(maker.priceTicks) * market.tickWei;
    const notional = notionalWei(market, BigInt(maker.priceTicks), BigInt(steps));
    // Fees round up to the next USD wei: the venue never undercharges.
    const makerFee = divideRounded(notional * this.deps.makerFeeBps, 10_000n, 'up');
    const takerFee = divideRounded(notional * this.deps.takerFeeBps, 10_000n, 'up');
    const makerPnl = this.settle(maker, steps, priceWei, makerFee);
    const takerPnl = this.settle(taker, steps, priceWei, takerFee);
    this.deps.store.fill(maker, steps);
    this.deps.store.fill(taker, steps);
    this.deps.onTrade(maker.marketId, maker.priceTicks);

    const print: ExecutionPrint = {
      price: weiToDecimal(priceWei),
      size: fixedToDecimal(BigInt(steps) * market.stepSize.units, market.stepSize.scale),
      time: (BigInt(nowMs) * 1_000_000n).toString(),
    };
    this.tradeSequence += 1n;
    const trade = tradeRecord(this.tradeSequence.toString(), maker, taker, print, makerFee, takerFee);
    events.push({ type: 'trade', market_id: maker.marketId, trade });
    this.pushFill(maker, 'MAKER', print, makerFee, makerPnl, events);
    this.pushFill(taker, 'TAKER', print, takerFee, takerPnl, events);
    events.touchBook(maker.marketId);
    if (remainingSteps(maker) === 0) this.finish(maker, 'ORDER_STATUS_FILLED', market, events);
    else
      events.push({
        type: 'order',
        account: maker.account,
        market_id: maker.marketId,
        order: toOrderRecord(maker, market),
      });
  }

  /** One side's ledger settlement of an execution; returns the PnL it realised. */
  private settle(order: SimOrder, steps: number, priceWei: bigint, feeWei: bigint): bigint {
    return this.deps.ledger.settleFill(order.account, order.marketId, order.side, BigInt(steps), priceWei, feeWei);
  }

  /** One side's fill event, with the position and balance it changed. */
  private pushFill(
    order: SimOrder,
    liquidity: 'MAKER' | 'TAKER',
    print: ExecutionPrint,
    feeWei: bigint,
    pnlWei: bigint,
    events: EventCollector,
  ): void {
    this.fillSequence += 1n;
    const fill = fillRecord(this.fillSequence.toString(), order, liquidity, print, feeWei, pnlWei);
    events.push({ type: 'fill', account: order.account, market_id: order.marketId, fill });
    events.touchPosition(order.account, order.marketId);
    events.touchBalance(order.account);
  }

  /** Terminal state: out of the book, one last order event. */
  private finish(
    order: SimOrder,
    status: 'ORDER_STATUS_FILLED' | 'ORDER_STATUS_CANCELLED',
    market: MarketSpec,
    events: EventCollector,
  ): void {
    order.status = status;
    this.deps.store.retire(order);
    events.push({
      type: 'order',
      account: order.account,
      market_id: order.marketId,
      order: toOrderRecord(order, market),
    });
  }
}

/**
 * What the matching walk needs for one placement. A class rather than an object of arrow
 * functions: nothing is allocated per closure, and tsx (which `npm run sim` runs through) wraps
 * each named arrow function in a naming call on every placement.
 */
class PlacementMatch implements MatchContext {
  constructor(
    private readonly entry: OrderEntry,
    readonly book: OrderBook,
    private readonly marketId: number,
    readonly nowMs: number,
    private readonly events: EventCollector,
  ) {}

  reducible(account: Address, side: 0 | 1): bigint {
    return this.entry.reducible(account, this.marketId, side);
  }

  fill(maker: SimOrder, taker: SimOrder, steps: number): void {
    this.entry.fill(maker, taker, steps, this.nowMs, this.events);
  }

  cancelMaker(maker: SimOrder): void {
    this.entry.cancel(maker, this.events);
  }
}

/** The best resting order that has not expired; an expired GTT order is no longer liquidity. */
function firstLive(orders: Iterable<SimOrder>, nowMs: number): SimOrder | undefined {
  for (const order of orders) {
    if (order.expiresAtMs === undefined || order.expiresAtMs > nowMs) return order;
  }
  return undefined;
}
