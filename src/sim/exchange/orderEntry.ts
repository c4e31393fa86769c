import type { Address } from '../../core/address.js';
import { divideRounded, fixedToDecimal, weiToDecimal } from '../../core/decimal.js';
import type { AccountLedger } from './accountLedger.js';
import type { EventCollector } from './eventCollector.js';
import { reverted } from './exchangeRejection.js';
import type { FillRecord } from './exchangeRecords.js';
import { notionalWei, type MarketSpec } from './markets.js';
import { fillableSteps, matchOrder, type MatchContext } from './matchOrder.js';
import { orderIdHex, wideOrderId } from './orderIds.js';
import type { OrderBook } from './orderBook.js';
import type { OrderStore } from './orderStore.js';
import type { CheckedOrder } from './placeOrderChecks.js';
import { reducibleSteps } from './positionMath.js';
import { remainingSteps, toOrderRecord, type SimOrder } from './simOrder.js';

export interface OrderEntryDeps {
  readonly store: OrderStore;
  readonly ledger: AccountLedger;
  market(marketId: number): MarketSpec;
  readonly makerFeeBps: bigint;
  readonly takerFeeBps: bigint;
  /** Called with each trade's price so the market can report last_price. */
  onTrade(marketId: number, priceTicks: number): void;
}

/**
 * Order placement, matching, fills and cancels: the stateful venue rules (reduce-only,
 * post-only, margin), then the matching walk, then what happens to the remainder.
 */
export class OrderEntry {
  private sequence = 0n;
  private tradeSequence = 0n;
  private fillSequence = 0n;

  constructor(private readonly deps: OrderEntryDeps) {}

  place(account: Address, checked: CheckedOrder, nowMs: number, events: EventCollector): SimOrder {
    const { store, ledger } = this.deps;
    const market = this.deps.market(checked.marketId);
    const book = store.book(checked.marketId);
    let sizeSteps = checked.sizeSteps;
    if (checked.reduceOnly) {
      const position = ledger.position(account, checked.marketId).sizeSteps;
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
      if (BigInt(sizeSteps) > reducible) sizeSteps = Number(reducible);
    }
    if (checked.postOnly) {
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
    if (!checked.reduceOnly) this.checkMargin(account, checked, sizeSteps);
    // Every refusal is behind us: only now change state. Orders past their GTT expiry leave the
    // book first, so the new order never rests against (or trades with) an expired one.
    this.expireDue(checked.marketId, nowMs, events);

    this.sequence += 1n;
    const wide = wideOrderId(this.sequence, checked.side);
    const order: SimOrder = {
      sequence: this.sequence,
      wide,
      orderId: orderIdHex(wide),
      account,
      marketId: checked.marketId,
      side: checked.side,
      sizeSteps,
      priceTicks: checked.priceTicks,
      orderType: checked.orderType,
      timeInForce: checked.timeInForce,
      postOnly: checked.postOnly,
      reduceOnly: checked.reduceOnly,
      stpMode: checked.stpMode,
      ...(checked.clientOrderId === undefined ? {} : { clientOrderId: checked.clientOrderId }),
      ...(checked.ttlSeconds === undefined ? {} : { expiresAtMs: nowMs + checked.ttlSeconds * 1000 }),
      filledSteps: 0,
      status: 'ORDER_STATUS_OPEN',
    };
    store.track(order);
    const context = this.matchContext(checked.marketId, nowMs, events);
    if (order.timeInForce === 2 && fillableSteps(context, order) < order.sizeSteps) {
      this.finish(order, 'ORDER_STATUS_CANCELLED', market, events);
      return order;
    }
    const stop = matchOrder(context, order);
    if (remainingSteps(order) === 0) {
      this.finish(order, 'ORDER_STATUS_FILLED', market, events);
    } else if (stop === 'no_cross' && order.orderType === 1 && (order.timeInForce === 0 || order.timeInForce === 1)) {
      store.rest(order);
      events.touchBook(order.marketId);
      events.push({ type: 'order', account, market_id: order.marketId, order: toOrderRecord(order, market) });
    } else {
      this.finish(order, 'ORDER_STATUS_CANCELLED', market, events);
    }
    return order;
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
    const makerPnl = this.deps.ledger.settleFill(
      maker.account,
      maker.marketId,
      maker.side,
      BigInt(steps),
      priceWei,
      makerFee,
    );
    const takerPnl = this.deps.ledger.settleFill(
      taker.account,
      taker.marketId,
      taker.side,
      BigInt(steps),
      priceWei,
      takerFee,
    );
    this.deps.store.fill(maker, steps);
    this.deps.store.fill(taker, steps);
    this.deps.onTrade(maker.marketId, maker.priceTicks);

    this.tradeSequence += 1n;
    const time = (BigInt(nowMs) * 1_000_000n).toString();
    const price = weiToDecimal(priceWei);
    const size = fixedToDecimal(BigInt(steps) * market.stepSize.units, market.stepSize.scale);
    events.push({
      type: 'trade',
      market_id: maker.marketId,
      trade: {
        id: this.tradeSequence.toString(),
        market_id: maker.marketId,
        maker_order_id: maker.orderId,
        taker_order_id: taker.orderId,
        maker: maker.account,
        taker: taker.account,
        maker_side: maker.side,
        price,
        size,
        fee_maker: weiToDecimal(makerFee),
        fee_taker: weiToDecimal(takerFee),
        time,
      },
    });
    for (const [order, fee, pnl, liquidity] of [
      [maker, makerFee, makerPnl, 'MAKER'],
      [taker, takerFee, takerPnl, 'TAKER'],
    ] as const) {
      this.fillSequence += 1n;
      const fill: FillRecord = {
        id: this.fillSequence.toString(),
        market_id: order.marketId,
        account: order.account,
        order_id: order.orderId,
        side: order.side,
        price,
        size,
        fee: weiToDecimal(fee),
        time,
        liquidity_indicator: liquidity,
        ...(order.clientOrderId === undefined ? {} : { client_order_id: order.clientOrderId.toString() }),
        realized_pnl: weiToDecimal(pnl),
      };
      events.push({ type: 'fill', account: order.account, market_id: order.marketId, fill });
      events.touchPosition(order.account, order.marketId);
      events.touchBalance(order.account);
    }
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
