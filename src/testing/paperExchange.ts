import { BehaviorSubject, Subject } from 'rxjs';
import type { Clock } from '../core/clock.js';
import {
  addDecimals,
  compareDecimals,
  countUnits,
  multiplyDecimals,
  multiplyUnits,
  negateDecimal,
} from '../core/decimal.js';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { Intent, PlaceLimitIntent, PlaceMarketIntent, Side, TimeInForce } from '../engine/intents/intents.js';
import type { MarketView } from '../engine/checks/marketView.js';
import type { OrderState } from '../engine/tracking/orderTracker.js';
import { rejection, type RejectionRule } from '../engine/intents/rejection.js';
import type { OrderUpdate } from './paperOrderEvents.js';
import { PnlLedger } from '../strategy/pnlLedger.js';
import type { BookView, FillView, OpenOrderSnapshot, PositionSnapshot, TradeView } from '../strategy/strategyViews.js';

/** What a scripted responder answers for an intent; undefined lets the fill model decide. */
export type ScriptedOutcome =
  | 'accept'
  | 'unknown'
  /** Never answered (a request that hangs): no outcome at all. */
  | 'silent'
  | { readonly refuse: RejectionRule; readonly reason?: string; readonly value?: string }
  | { readonly fail: string; readonly message?: string };

export type Responder = (intent: Intent) => ScriptedOutcome | undefined;

/**
 * `touch`: limit orders fill when the book or a trade reaches their price, market orders at once;
 * `none`: only scripted fills.
 */
export type FillModel = 'touch' | 'none';

export interface PaperExchangeOptions {
  readonly clock: Clock;
  readonly markets: readonly MarketView[];
  readonly fillModel: FillModel;
  /** Fee rates as fractions of notional ("0.0001" is 1 bp). */
  readonly fees: { readonly maker: string; readonly taker: string };
  readonly balance: string;
}

interface PaperOrder {
  readonly intentId: string;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: Side;
  readonly size: string;
  readonly price: string;
  readonly orderId: string;
  readonly timeInForce: TimeInForce;
  readonly isMarket: boolean;
  state: OrderState;
  filledSize: string;
}

/**
 * A small exchange for the test kit: it answers intents with outcomes as the engine would (the
 * common refusals: off-grid price or size, below the minimum size, reduce-only with nothing to
 * reduce, post-only that would cross), keeps resting orders, and fills them by a simple model
 * against the scripted book and trades, keeping positions, fees and the balance. Deliberately
 * simple: no queue position, no partial book consumption between orders, no margin.
 */
export class PaperExchange {
  readonly outcomes$ = new Subject<IntentOutcome>();
  readonly orderUpdates$ = new Subject<OrderUpdate>();
  readonly fills$ = new Subject<FillView>();
  readonly positions$ = new Subject<readonly PositionSnapshot[]>();
  readonly orders$ = new Subject<readonly OpenOrderSnapshot[]>();
  readonly balance$: BehaviorSubject<string>;
  private readonly markets = new Map<number, MarketView>();
  private readonly books = new Map<number, BookView>();
  private readonly orders = new Map<string, PaperOrder>();
  private readonly ledger = new PnlLedger();
  private readonly responders: Responder[] = [];
  private nextOrder = 1;
  private nextFill = 1;

  constructor(private readonly options: PaperExchangeOptions) {
    for (const m of options.markets) this.markets.set(Number(m.market_id), m);
    this.balance$ = new BehaviorSubject(options.balance);
  }

  /** Answers before the fill model: the first responder that returns an outcome decides. */
  respond(responder: Responder): void {
    this.responders.push(responder);
  }

  market(marketId: number): MarketView | undefined {
    return this.markets.get(marketId);
  }

  allMarkets(): readonly MarketView[] {
    return [...this.markets.values()];
  }

  setMark(marketId: number, markPrice: string): void {
    const market = this.requireMarket(marketId);
    this.markets.set(marketId, { ...market, mark_price: markPrice });
  }

  setBook(book: BookView): void {
    this.books.set(book.marketId, book);
    if (this.options.fillModel === 'touch') this.fillRestingAgainstBook(book);
  }

  onTrade(trade: TradeView): void {
    if (this.options.fillModel !== 'touch') return;
    // A resting order at or through the trade's price is reached by it (aggressor on the other side).
    let left = trade.size;
    for (const order of this.resting(trade.marketId)) {
      if (compareDecimals(left, '0') <= 0) break;
      if (order.side === trade.aggressorSide) continue;
      const reached =
        order.side === 'buy'
          ? compareDecimals(trade.price, order.price) <= 0
          : compareDecimals(trade.price, order.price) >= 0;
      if (!reached) continue;
      const size = minOf(left, this.remaining(order));
      this.fill(order, size, order.price, 'MAKER');
      left = addDecimals(left, negateDecimal(size));
    }
  }

  /** Sets the account's position in a market as the venue would report it. */
  setPosition(marketId: number, side: Side, size: string, entryPrice: string): void {
    this.ledger.resetPosition(marketId, side, size, entryPrice);
    this.positions$.next(this.allPositions());
  }

  submit(intent: Intent): void {
    const scripted = this.responders.map((r) => r(intent)).find((o) => o !== undefined);
    if (scripted !== undefined) {
      this.answerScripted(intent, scripted);
      return;
    }
    switch (intent.kind) {
      case 'placeLimit':
        this.placeLimit(intent);
        return;
      case 'placeMarket':
        this.placeMarket(intent, intent.side, intent.size, intent.reduceOnly);
        return;
      case 'closePosition': {
        const position = this.ledger.position(intent.marketId);
        if (position === undefined) return this.refuse(intent, 'reduce_only', '0', 'there is no position to close');
        const long = compareDecimals(position.signedSize, '0') > 0;
        this.placeMarket(
          intent,
          long ? 'sell' : 'buy',
          long ? position.signedSize : negateDecimal(position.signedSize),
          true,
        );
        return;
      }
      case 'cancel': {
        const target =
          'intentId' in intent.target
            ? this.orders.get(intent.target.intentId)
            : [...this.orders.values()].find((o) => 'orderId' in intent.target && o.orderId === intent.target.orderId);
        if (target === undefined || !isResting(target.state))
          return this.refuse(intent, 'cancel_target_finished', JSON.stringify(intent.target), 'the order is not open');
        this.accept(intent);
        this.setState(target, 'cancelled');
        return;
      }
      case 'cancelAll':
        this.accept(intent);
        for (const order of this.resting(intent.marketId)) this.setState(order, 'cancelled');
        return;
      case 'setLeverage':
      case 'setMarginMode':
      case 'adjustIsolatedMargin':
        // Account settings: accepted, with no order and no effect on the paper account.
        this.accept(intent);
        return;
    }
  }

  /** A scripted fill of a resting order (any fill model): `size` at `price` (default: its limit). */
  fillOrder(intentId: string, size?: string, price?: string): void {
    const order = this.orders.get(intentId);
    if (order === undefined || !isResting(order.state)) throw new Error(`no resting order for intent ${intentId}`);
    this.fill(order, size ?? this.remaining(order), price ?? order.price, 'MAKER');
  }

  /** Ends a resting order without a cancel of ours: the venue cancelled it, or (GTT) it expired. */
  endOrder(intentId: string): void {
    const order = this.orders.get(intentId);
    if (order !== undefined && isResting(order.state)) this.setState(order, 'cancelled');
  }

  openOrders(marketId?: number): OpenOrderSnapshot[] {
    return [...this.orders.values()]
      .filter((o) => isResting(o.state) && (marketId === undefined || o.marketId === marketId))
      .map(snapshotOf);
  }

  position(marketId: number): PositionSnapshot | undefined {
    const p = this.ledger.position(marketId);
    if (p === undefined) return undefined;
    const long = compareDecimals(p.signedSize, '0') > 0;
    const mark = this.markets.get(marketId)?.mark_price;
    return {
      marketId,
      side: long ? 'buy' : 'sell',
      size: long ? p.signedSize : negateDecimal(p.signedSize),
      signedSize: p.signedSize,
      avgEntryPrice: p.avgEntryPrice,
      ...(mark === undefined
        ? {}
        : {
            markPrice: mark,
            unrealizedPnl: multiplyDecimals(p.signedSize, addDecimals(mark, negateDecimal(p.avgEntryPrice))),
          }),
    };
  }

  allPositions(): PositionSnapshot[] {
    return [...this.markets.keys()].map((m) => this.position(m)).filter((p): p is PositionSnapshot => p !== undefined);
  }

  private placeLimit(intent: PlaceLimitIntent): void {
    const market = this.requireMarket(intent.marketId);
    const size = this.onGrid(intent, intent.size, market.config.step_size, intent.sizeRounding, 'size_step');
    const price = this.onGrid(intent, intent.price, market.config.step_price, intent.priceRounding, 'price_tick');
    if (size === undefined || price === undefined || !this.sizeAllowed(intent, size, intent.side, intent.reduceOnly))
      return;
    const book = this.books.get(intent.marketId);
    const opposite = intent.side === 'buy' ? book?.asks[0] : book?.bids[0];
    const crosses =
      opposite !== undefined &&
      (intent.side === 'buy'
        ? compareDecimals(price, opposite.price) >= 0
        : compareDecimals(price, opposite.price) <= 0);
    if (intent.postOnly && crosses) {
      this.outcome(intent, {
        type: 'failed',
        error: {
          code: 'VENUE_POST_ONLY_WOULD_CROSS',
          kind: 'PostOnlyWouldCross',
          message: `post-only ${intent.side} at ${price} would cross ${opposite?.price}`,
          hints: [],
        },
      });
      return;
    }
    const order = this.newOrder(intent, intent.side, size, price, intent.timeInForce, false);
    this.accept(intent, order.orderId);
    if (this.options.fillModel === 'touch' && crosses) this.takeLiquidity(order, price);
    if (order.timeInForce !== 'GTC' && order.timeInForce !== 'GTT' && isResting(order.state))
      this.setState(order, 'cancelled');
  }

  private placeMarket(intent: PlaceMarketIntent | Intent, side: Side, rawSize: string, reduceOnly: boolean): void {
    const market = this.requireMarket(intent.marketId);
    const sizeRounding = intent.kind === 'placeMarket' ? intent.sizeRounding : undefined;
    const size = this.onGrid(intent, rawSize, market.config.step_size, sizeRounding, 'size_step');
    if (size === undefined || !this.sizeAllowed(intent, size, side, reduceOnly)) return;
    const order = this.newOrder(intent, side, size, market.mark_price, 'IOC', true);
    this.accept(intent, order.orderId);
    if (this.options.fillModel !== 'touch') return;
    const book = this.books.get(intent.marketId);
    const levels = (side === 'buy' ? book?.asks : book?.bids) ?? [];
    if (levels.length === 0) this.fill(order, size, market.mark_price, 'TAKER');
    else this.takeLiquidity(order, undefined);
    if (isResting(order.state)) this.setState(order, 'cancelled');
  }

  /** Fills an incoming order against the book's levels, up to `limit` when given. */
  private takeLiquidity(order: PaperOrder, limit: string | undefined): void {
    const book = this.books.get(order.marketId);
    const levels = (order.side === 'buy' ? book?.asks : book?.bids) ?? [];
    for (const level of levels) {
      const left = this.remaining(order);
      if (compareDecimals(left, '0') <= 0) break;
      if (
        limit !== undefined &&
        (order.side === 'buy' ? compareDecimals(level.price, limit) > 0 : compareDecimals(level.price, limit) < 0)
      )
        break;
      this.fill(order, minOf(left, level.quantity), level.price, 'TAKER');
    }
  }

  private fillRestingAgainstBook(book: BookView): void {
    for (const order of this.resting(book.marketId)) {
      const opposite = order.side === 'buy' ? book.asks[0] : book.bids[0];
      if (opposite === undefined) continue;
      const reached =
        order.side === 'buy'
          ? compareDecimals(opposite.price, order.price) <= 0
          : compareDecimals(opposite.price, order.price) >= 0;
      if (reached) this.fill(order, minOf(this.remaining(order), opposite.quantity), order.price, 'MAKER');
    }
  }

  private fill(order: PaperOrder, size: string, price: string, liquidity: 'MAKER' | 'TAKER'): void {
    if (compareDecimals(size, '0') <= 0) return;
    const rate = liquidity === 'MAKER' ? this.options.fees.maker : this.options.fees.taker;
    const fee = multiplyDecimals(multiplyDecimals(size, price), rate);
    const before = this.ledger.view(() => undefined);
    const fill = { marketId: order.marketId, side: order.side, price, size, fee };
    this.ledger.onFill(fill);
    const after = this.ledger.view(() => undefined);
    this.balance$.next(
      addDecimals(
        this.balance$.value,
        addDecimals(addDecimals(after.realized, negateDecimal(before.realized)), negateDecimal(fee)),
      ),
    );
    order.filledSize = addDecimals(order.filledSize, size);
    const state: OrderState = compareDecimals(order.filledSize, order.size) >= 0 ? 'filled' : 'partially_filled';
    this.fills$.next({
      id: `fill-${this.nextFill++}`,
      ...fill,
      orderId: order.orderId,
      intentId: order.intentId,
      strategy: order.strategy,
      liquidity,
      timeMs: this.options.clock.now(),
    });
    this.setState(order, state);
    this.positions$.next(this.allPositions());
  }

  private newOrder(
    intent: Intent,
    side: Side,
    size: string,
    price: string,
    timeInForce: TimeInForce,
    isMarket: boolean,
  ): PaperOrder {
    const order: PaperOrder = {
      intentId: intent.intentId,
      strategy: intent.strategy,
      marketId: intent.marketId,
      side,
      size,
      price,
      orderId: `0x${(this.nextOrder++).toString(16).padStart(64, '0')}`,
      timeInForce,
      isMarket,
      state: 'pending',
      filledSize: '0',
    };
    this.orders.set(intent.intentId, order);
    this.setState(order, 'open');
    return order;
  }

  private setState(order: PaperOrder, state: OrderState): void {
    order.state = state;
    this.orderUpdates$.next({
      intentId: order.intentId,
      strategy: order.strategy,
      marketId: order.marketId,
      side: order.side,
      size: order.size,
      price: order.price,
      state,
      filledSize: order.filledSize,
      orderId: order.orderId,
    });
    this.orders$.next(this.openOrders());
  }

  /** The value on the market's grid (rounded as the intent names), or undefined after refusing it. */
  private onGrid(
    intent: Intent,
    value: string,
    unit: string,
    rounding: PlaceLimitIntent['priceRounding'],
    rule: 'size_step' | 'price_tick',
  ): string | undefined {
    try {
      return multiplyUnits(countUnits(value, unit, rule === 'size_step' ? 'size' : 'price', rounding), unit);
    } catch {
      this.refuse(intent, rule, value, `${value} is not a whole multiple of ${unit}`);
      return undefined;
    }
  }

  private sizeAllowed(intent: Intent, size: string, side: Side, reduceOnly: boolean): boolean {
    const market = this.requireMarket(intent.marketId);
    if (compareDecimals(size, market.config.min_order_size) < 0 || compareDecimals(size, '0') <= 0) {
      this.refuse(
        intent,
        'min_order_size',
        size,
        `below the market's minimum order size ${market.config.min_order_size}`,
      );
      return false;
    }
    if (reduceOnly) {
      const position = this.ledger.position(intent.marketId);
      const reduces =
        position !== undefined && (compareDecimals(position.signedSize, '0') > 0 ? side === 'sell' : side === 'buy');
      if (!reduces) {
        this.refuse(intent, 'reduce_only', size, 'reduce-only with no position on the other side');
        return false;
      }
    }
    return true;
  }

  private resting(marketId: number): PaperOrder[] {
    return [...this.orders.values()].filter((o) => o.marketId === marketId && isResting(o.state));
  }

  private remaining(order: PaperOrder): string {
    return addDecimals(order.size, negateDecimal(order.filledSize));
  }

  private requireMarket(marketId: number): MarketView {
    const market = this.markets.get(marketId);
    if (market === undefined) throw new Error(`the test kit has no market ${marketId}; list it in the kit's markets`);
    return market;
  }

  private answerScripted(intent: Intent, scripted: ScriptedOutcome): void {
    if (scripted === 'accept') {
      const isPlacement = intent.kind === 'placeLimit' || intent.kind === 'placeMarket';
      if (!isPlacement) return this.accept(intent);
      const order = this.newOrder(
        intent,
        intent.side,
        intent.size,
        intent.kind === 'placeLimit' ? intent.price : this.requireMarket(intent.marketId).mark_price,
        intent.timeInForce,
        intent.kind === 'placeMarket',
      );
      return this.accept(intent, order.orderId);
    }
    if (scripted === 'unknown') return this.outcome(intent, { type: 'unknown', reason: 'scripted by the test' });
    if (scripted === 'silent') return;
    if ('refuse' in scripted)
      return this.refuse(intent, scripted.refuse, scripted.value ?? '', scripted.reason ?? 'scripted by the test');
    this.outcome(intent, {
      type: 'failed',
      error: { code: scripted.fail, message: scripted.message ?? 'scripted by the test', hints: [] },
    });
  }

  private accept(intent: Intent, orderId?: string): void {
    this.outcome(intent, { type: 'accepted', ...(orderId === undefined ? {} : { orderId }) });
  }

  private refuse(intent: Intent, rule: RejectionRule, value: string, reason: string): void {
    this.outcome(intent, { type: 'refused', rejection: rejection(rule, value, reason) });
  }

  private outcome(
    intent: Intent,
    result: DistributiveOmit<IntentOutcome, 'intentId' | 'strategy' | 'kind' | 'marketId' | 'atMs'>,
  ): void {
    this.outcomes$.next({
      ...result,
      intentId: intent.intentId,
      strategy: intent.strategy,
      kind: intent.kind,
      marketId: intent.marketId,
      atMs: this.options.clock.now(),
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function isResting(state: OrderState): boolean {
  return state === 'open' || state === 'partially_filled';
}

function minOf(a: string, b: string): string {
  return compareDecimals(a, b) <= 0 ? a : b;
}

function snapshotOf(o: PaperOrder): OpenOrderSnapshot {
  return {
    orderId: o.orderId,
    intentId: o.intentId,
    strategy: o.strategy,
    marketId: o.marketId,
    side: o.side,
    price: o.price,
    size: o.size,
    filledSize: o.filledSize,
    state: o.state === 'partially_filled' ? 'partially_filled' : 'open',
  };
}
