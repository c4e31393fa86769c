import { parseAddress, type Address } from '../../core/address.js';
import { decimalToWei, multiplyUnits } from '../../core/decimal.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { AccountHistory } from './accountHistory.js';
import { AccountLedger } from './accountLedger.js';
import { updateIsolatedMargin, updateLeverage, updateMarginMode } from './accountActions.js';
import { EventCollector } from './eventCollector.js';
import type { ExchangeEvent } from './exchangeEvents.js';
import type { ActionResult, CancelAllResult, PlaceOrderResult } from './exchangeResults.js';
import { ExchangeRefusal, invalidArgument, reverted } from './exchangeRefusal.js';
import type {
  BalanceRecord,
  BookSnapshot,
  MarketRecord,
  OraclePriceRecord,
  OrderRecord,
  PlaceOrderParams,
  PositionRecord,
} from './exchangeRecords.js';
import { bookSnapshot, marketRecord } from './marketRecords.js';
import { compileMarkets, DEFAULT_MARKETS, type MarketDefinition, type MarketSpec } from './markets.js';
import { OraclePrices } from './oraclePrices.js';
import { OrderEntry } from './orderEntry.js';
import type { TickLevel } from './orderBook.js';
import { OrderStore } from './orderStore.js';
import { RecordedLayer, type RecordedLevelChange } from './recordedLayer.js';
import { checkPlaceOrder } from './placeOrderChecks.js';
import { toOrderRecord, type SimOrder } from './simOrder.js';
import { checkIdBases, COUNTING_FROM_ONE, type SimIdBases } from './simIdBases.js';
import { Liquidator } from './liquidation.js';
import {
  SYNTHETIC_MAKER_ACCOUNTS,
  SYNTHETIC_TAKER_ACCOUNT,
  SyntheticMakers,
  type SyntheticMakersConfig,
} from './syntheticMakers.js';
import { BoundedMap } from '../../core/boundedMap.js';

export interface ExchangeOptions {
  /** Seeds the oracle walk and the synthetic makers (uint32). */
  readonly seed: number;
  readonly markets?: readonly MarketDefinition[];
  /** Fees in basis points of notional; defaults maker 2, taker 5. */
  readonly makerFeeBps?: bigint;
  readonly takerFeeBps?: bigint;
  /** Leverage of a market the account never set; default 10 (capped by max_leverage). */
  readonly defaultLeverage?: number;
  /** Per-block index move bound in parts per million; default 300 (3 bps). */
  readonly oracleVolatilityPpm?: number;
  /** Synthetic liquidity; `false` turns it off (unit tests of matching). Default on. */
  readonly makers?: SyntheticMakersConfig | false;
  /** Terminal (filled/cancelled) orders kept for lookup; older ones are forgotten. Default 10,000. */
  readonly terminalOrderRetention?: number;
  /** Orders, and separately fills, kept per account for the history reads; older ones are forgotten. Default 10,000. */
  readonly historyRetention?: number;
  /**
   * Liquidate pools whose equity falls below maintenance margin, once per block, by selling into
   * the book. Default false: the venue's liquidation rules are not shown, so it is opt-in.
   */
  readonly liquidation?: boolean;
  /**
   * Where order sequences, fill ids and trade ids count from. Default: from 1, the same every
   * run (the core stays deterministic); `startSim` draws random bases unless asked for fixed ids.
   */
  readonly idBases?: SimIdBases;
}

export type { RecordedLevelChange, SyntheticMakersConfig };

export type { ActionResult, CancelAllResult, PlaceOrderResult };

export { DEFAULT_MARKETS };

/** A market's book in the exchange's units, with the market it is on. */
export interface TickBook {
  readonly market: MarketSpec;
  readonly bids: readonly TickLevel[];
  readonly asks: readonly TickLevel[];
}

/**
 * A market's book levels that changed since a reader last read them, best first, a level gone
 * with 0 steps and no orders; or, when `whole`, every level (see `Exchange.bookChanges`).
 */
export interface TickBookChanges extends TickBook {
  readonly whole: boolean;
}

/**
 * The simulator's exchange core: pure, deterministic and synchronous. No I/O, no timers, no
 * clock: time and block numbers come in as arguments. Every mutating call returns the events it
 * produced; refusals throw `ExchangeRefusal` whose `text` is the venue's error text, and leave
 * the state unchanged.
 */
export class Exchange {
  private readonly specs: ReadonlyMap<number, MarketSpec>;
  private readonly oracle: OraclePrices;
  private readonly store: OrderStore;
  private readonly ledger: AccountLedger;
  private readonly entry: OrderEntry;
  private readonly recorded: RecordedLayer;
  private readonly lastTradeTicks = new Map<number, number>();
  private readonly makers: SyntheticMakers | undefined;
  private readonly liquidator: Liquidator | undefined;
  private currentBlock = 0;
  private readonly addresses = new BoundedMap<string, Address>(10_000);
  /**
   * Per-account order history and fills for the history reads. Fed by the caller with each
   * transaction's (or block's) events and stamp, since the core knows neither blocks nor hashes.
   */
  readonly history: AccountHistory;

  constructor(options: ExchangeOptions) {
    if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 0xffff_ffff) {
      throw new InvalidValueError('seed', options.seed, 'a uint32');
    }
    const defaultLeverage = options.defaultLeverage ?? 10;
    if (!Number.isInteger(defaultLeverage) || defaultLeverage < 1 || defaultLeverage > 255) {
      throw new InvalidValueError('defaultLeverage', defaultLeverage, 'an integer 1 to 255');
    }
    const retention = options.terminalOrderRetention ?? 10_000;
    if (!Number.isInteger(retention) || retention < 0)
      throw new InvalidValueError('terminalOrderRetention', retention, 'an integer >= 0');
    this.specs = compileMarkets(options.markets ?? DEFAULT_MARKETS);
    this.oracle = new OraclePrices(this.specs.values(), options.seed, options.oracleVolatilityPpm);
    this.store = new OrderStore(this.specs.keys(), retention);
    this.ledger = new AccountLedger(
      {
        market: (id) => this.spec(id),
        markWei: (id) => this.oracle.markWei(id),
        marginNotionals: (account, marketId) =>
          this.store.marginNotionals(account, this.spec(marketId), this.oracle.markWei(marketId)),
      },
      defaultLeverage,
      options.liquidation === true,
    );
    const makerFeeBps = options.makerFeeBps ?? 2n;
    const takerFeeBps = options.takerFeeBps ?? 5n;
    this.entry = new OrderEntry({
      store: this.store,
      ledger: this.ledger,
      market: (id) => this.spec(id),
      makerFeeBps,
      takerFeeBps,
      onTrade: (marketId, ticks) => this.lastTradeTicks.set(marketId, ticks),
      ids: checkIdBases(options.idBases ?? COUNTING_FROM_ONE),
    });
    this.recorded = new RecordedLayer({
      store: this.store,
      numbered: (account, checked, sizeSteps, nowMs) => this.entry.newOrder(account, checked, sizeSteps, nowMs),
    });
    this.history = new AccountHistory({
      market: (id) => this.spec(id),
      makerFeeBps,
      takerFeeBps,
      exempt: [...SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT],
      retention: options.historyRetention ?? 10_000,
    });
    this.makers = options.makers === false ? undefined : new SyntheticMakers(this, options.seed, options.makers ?? {});
    this.liquidator =
      options.liquidation === true
        ? new Liquidator({
            ledger: this.ledger,
            entry: this.entry,
            store: this.store,
            market: (id) => this.spec(id),
            markWei: (id) => this.oracle.markWei(id),
            exempt: new Set([...SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT]),
          })
        : undefined;
  }

  /** Registers the account on its first deposit; amount is a positive decimal USDC string. */
  deposit(account: Address, amountUsdc: string): ActionResult {
    const address = this.address(account);
    let amountWei: bigint;
    try {
      amountWei = decimalToWei(amountUsdc, 'amount');
    } catch {
      throw invalidArgument(
        `amount must be a decimal USDC string with at most 18 decimals, got ${JSON.stringify(amountUsdc)}`,
      );
    }
    if (amountWei <= 0n) throw invalidArgument(`amount must be positive, got ${amountUsdc}`);
    this.ledger.deposit(address, amountWei);
    const events = new EventCollector();
    events.touchBalance(address);
    return { events: this.flush(events) };
  }

  /** True once the account has deposited (the venue's "registered"). */
  isRegistered(account: Address): boolean {
    return this.ledger.isRegistered(this.address(account));
  }

  /** `nowMs` is the unix time in milliseconds the action is mined at (fills and GTT use it). */
  placeOrder(account: Address, params: PlaceOrderParams, nowMs: number): PlaceOrderResult {
    const address = this.registered(account);
    if (!Number.isSafeInteger(nowMs) || nowMs < 0) throw new InvalidValueError('nowMs', nowMs, 'unix milliseconds');
    const checked = checkPlaceOrder(this.specs.get(params.market_id), params);
    const events = new EventCollector();
    const order = this.entry.place(address, checked, nowMs, events);
    const market = this.spec(order.marketId);
    return {
      order: lastRecordOf(events, order) ?? toOrderRecord(order, market),
      filled_quantity: multiplyUnits(BigInt(order.filledSteps), market.definition.config.step_size),
      filled_percent: Math.floor((order.filledSteps * 100) / order.sizeSteps),
      events: this.flush(events),
    };
  }

  /** Cancels one open order of the account by its resting_order_id (what the cancel hash commits to). */
  cancelOrder(account: Address, marketId: number, restingOrderId: bigint): ActionResult {
    const address = this.registered(account);
    this.spec(marketId);
    const order = this.store.bySequenceId(restingOrderId);
    if (order === undefined || order.marketId !== marketId || order.status !== 'ORDER_STATUS_OPEN') {
      throw reverted(
        'CancelOrder',
        'OrderNotFound',
        [restingOrderId],
        'the order may have filled, expired or been cancelled already; read GET /v1/orders/open',
      );
    }
    if (order.account !== address) throw reverted('CancelOrder', 'NotOrderOwner', [restingOrderId]);
    const events = new EventCollector();
    this.entry.cancel(order, events);
    return { events: this.flush(events) };
  }

  /** Cancels every open order of the account in one market (market id required, venue-facts). */
  cancelAll(account: Address, marketId: number): CancelAllResult {
    const address = this.registered(account);
    const market = this.spec(marketId);
    const events = new EventCollector();
    const cancelled: OrderRecord[] = [];
    for (const order of this.store.openOrders(address, marketId)) {
      this.entry.cancel(order, events);
      cancelled.push(toOrderRecord(order, market));
    }
    return { cancelled, events: this.flush(events) };
  }

  /**
   * Driven liquidity (`src/sim/replay`): the changed levels of a market's recorded book, each shown
   * by one unmatched order of `account` (`RecordedLayer`): in place while that order is open, with
   * `steps` left (0 withdraws it); rested anew, without matching, otherwise.
   */
  showRecorded(
    account: Address,
    marketId: number,
    levels: readonly RecordedLevelChange[],
    nowMs: number,
  ): ActionResult {
    const address = this.registered(account);
    this.spec(marketId);
    const events = new EventCollector();
    this.recorded.show(address, marketId, levels, nowMs, events);
    return { events: this.flush(events) };
  }

  /**
   * A recorded trade reached a resting order (by resting id): `steps` of it trade with
   * `counterparty` at the order's price, with fees, ledger and events as any fill.
   */
  fillResting(restingOrderId: bigint, counterparty: Address, steps: number, nowMs: number): ActionResult {
    const taker = this.registered(counterparty);
    const maker = this.store.bySequenceId(restingOrderId);
    if (maker?.status !== 'ORDER_STATUS_OPEN' || steps <= 0 || steps > maker.sizeSteps - maker.filledSteps)
      throw new InvalidValueError(
        'fillResting',
        { restingOrderId, steps },
        'an open order and at most its remaining steps',
      );
    const events = new EventCollector();
    this.entry.fillAgainst(maker, taker, steps, nowMs, events);
    return { events: this.flush(events) };
  }

  /** Driven oracle (`src/sim/replay`): a market's mark and index as recorded, in wei. */
  setOraclePrices(marketId: number, markWei: bigint, indexWei: bigint): void {
    this.spec(marketId);
    this.oracle.setPrices(marketId, markWei, indexWei);
  }

  /** leverage 1..255 and at most the market's max_leverage. */
  setLeverage(account: Address, marketId: number, leverage: number): ActionResult {
    return this.accountAction(account, marketId, (address, market) =>
      updateLeverage(this.ledger, address, market, leverage),
    );
  }

  /** 0 cross, 1 isolated; fails with OpenPositionExists(<signed size_steps>) while a position is open. */
  setMarginMode(account: Address, marketId: number, marginMode: number): ActionResult {
    return this.accountAction(account, marketId, (address, market) =>
      updateMarginMode(this.ledger, address, market, marginMode, this.store.openOrders(address, marketId).length),
    );
  }

  /** amountWei: signed int128 in USD wei (18 decimals); positive adds, negative removes. */
  adjustIsolatedMargin(account: Address, marketId: number, amountWei: bigint): ActionResult {
    return this.accountAction(account, marketId, (address, market) =>
      updateIsolatedMargin(this.ledger, address, market, amountWei),
    );
  }

  /**
   * One block: the oracle moves, GTT orders past their time expire, the synthetic makers run, then
   * liquidations (if enabled).
   */
  advanceBlock(blockNumber: number, timestampMs: number): ActionResult {
    if (!Number.isSafeInteger(blockNumber) || blockNumber <= this.currentBlock) {
      throw new InvalidValueError(
        'blockNumber',
        blockNumber,
        `an integer above the current block ${this.currentBlock}`,
      );
    }
    if (!Number.isSafeInteger(timestampMs) || timestampMs < 0)
      throw new InvalidValueError('timestampMs', timestampMs, 'unix milliseconds');
    this.currentBlock = blockNumber;
    this.oracle.step();
    const collector = new EventCollector();
    collector.push({
      type: 'oracle',
      block_number: blockNumber,
      timestamp_ms: timestampMs,
      prices: this.oracle.prices(),
    });
    for (const marketId of this.specs.keys()) this.entry.expireDue(marketId, timestampMs, collector);
    const events = this.flush(collector);
    if (this.makers !== undefined) events.push(...this.makers.run(timestampMs));
    if (this.liquidator !== undefined) {
      // After the makers re-quoted, so liquidations sell into a book around the new mark.
      const liquidations = new EventCollector();
      this.liquidator.run(timestampMs, liquidations);
      events.push(...this.flush(liquidations));
    }
    return { events };
  }

  /** Test control: mark and index of a market jump to `price` (decimal); the next block moves on from there. */
  setMark(marketId: number, price: string): void {
    this.spec(marketId);
    let wei: bigint;
    try {
      wei = decimalToWei(price, 'price');
    } catch {
      throw invalidArgument(`price must be a decimal string with at most 18 decimals, got ${JSON.stringify(price)}`);
    }
    if (wei <= 0n) throw invalidArgument(`price must be positive, got ${price}`);
    this.oracle.setMark(marketId, wei);
  }

  /** A market's grid and rules, or undefined when it does not exist (what the TP/SL checks read). */
  marketSpec(marketId: number): MarketSpec | undefined {
    return this.specs.get(marketId);
  }

  /**
   * A trade printed outside this exchange's matching (a recording's, driving a replay) is the
   * market's last traded price, as the venue's own would be: what a TP/SL on the last trade
   * watches and the market's `last_price`. Off the grid, it is taken down to a tick.
   */
  printedTrade(marketId: number, priceWei: bigint): void {
    const market = this.spec(marketId);
    this.lastTradeTicks.set(marketId, Number(priceWei / market.tickWei));
  }

  /** What a TP/SL watches, in wei: the mark, and the last trade's price (undefined before any trade). */
  watchedPrices(marketId: number): { readonly markWei: bigint; readonly lastTradeWei: bigint | undefined } {
    const market = this.spec(marketId);
    const ticks = this.lastTradeTicks.get(marketId);
    return {
      markWei: this.oracle.markWei(marketId),
      lastTradeWei: ticks === undefined ? undefined : BigInt(ticks) * market.tickWei,
    };
  }

  openOrders(account: Address, marketId?: number): OrderRecord[] {
    return this.store.openOrders(this.address(account), marketId).map((o) => toOrderRecord(o, this.spec(o.marketId)));
  }

  /** By hex order_id; undefined when unknown or forgotten (see terminalOrderRetention). */
  order(orderId: string): OrderRecord | undefined {
    const order = this.store.byOrderId(orderId);
    return order === undefined ? undefined : toOrderRecord(order, this.spec(order.marketId));
  }

  /** The resting_order_id of an order known by its hex order_id (as `order` finds it), without building its record. */
  restingOrderIdOf(orderId: string): bigint | undefined {
    return this.store.byOrderId(orderId)?.sequence;
  }

  orderByRestingId(restingOrderId: bigint): OrderRecord | undefined {
    const order = this.store.bySequenceId(restingOrderId);
    return order === undefined ? undefined : toOrderRecord(order, this.spec(order.marketId));
  }

  position(account: Address, marketId: number): PositionRecord {
    this.spec(marketId);
    return this.ledger.positionRecord(this.address(account), marketId);
  }

  /** Open (non-flat) positions only, by market id. */
  positions(account: Address): PositionRecord[] {
    const address = this.address(account);
    return this.ledger.openPositionMarkets(address).map((marketId) => this.ledger.positionRecord(address, marketId));
  }

  balance(account: Address): BalanceRecord {
    return this.ledger.balanceRecord(this.address(account));
  }

  /** Aggregated levels, bids descending and asks ascending, decimal strings. */
  book(marketId: number, depth?: number): BookSnapshot {
    return bookSnapshot(this.spec(marketId), this.store.book(marketId), depth);
  }

  /** The whole book in ticks and steps, best first (the orderbook channel converts only what changed). */
  bookTicks(marketId: number): TickBook {
    const market = this.spec(marketId);
    const book = this.store.book(marketId);
    return { market, bids: book.levels(0), asks: book.levels(1) };
  }

  /**
   * The levels of the market's book that changed since `reader` last asked (a level may be listed
   * that changed and changed back); the whole book, and following `reader` from now on, the first
   * time, on `restart`, or once the reader fell too far behind (`ChangedTicks`).
   */
  bookChanges(marketId: number, reader: object, restart: boolean): TickBookChanges {
    const market = this.spec(marketId);
    const book = this.store.book(marketId);
    const taken = restart ? undefined : book.changed.take(reader);
    if (taken === undefined) {
      book.changed.follow(reader);
      return { market, whole: true, bids: book.levels(0), asks: book.levels(1) };
    }
    return { market, whole: false, bids: book.levelsAt(0, taken[0]), asks: book.levelsAt(1, taken[1]) };
  }

  /** Market records as GET /v1/markets shows them. */
  markets(): MarketRecord[] {
    return [...this.specs.values()].map((market) =>
      marketRecord(
        market,
        this.oracle.markWei(market.marketId),
        this.oracle.indexWei(market.marketId),
        this.lastTradeTicks.get(market.marketId),
      ),
    );
  }

  /** Integer wei strings keyed by market id string: the oracle channel's `data.prices`. */
  oraclePrices(): Record<string, OraclePriceRecord> {
    return this.oracle.prices();
  }

  get blockNumber(): number {
    return this.currentBlock;
  }

  /** Orders held in memory (open plus retained terminal) and resting in books; for soak checks. */
  get orderCounts(): { known: number; open: number } {
    return this.store.size;
  }

  private accountAction(
    account: Address,
    marketId: number,
    action: (address: Address, market: MarketSpec) => void,
  ): ActionResult {
    const address = this.registered(account);
    const market = this.spec(marketId);
    action(address, market);
    const events = new EventCollector();
    events.touchPosition(address, marketId);
    events.touchBalance(address);
    return { events: this.flush(events) };
  }

  private flush(collector: EventCollector): ExchangeEvent[] {
    const events = [...collector.events];
    for (const { account, marketId } of collector.positions.values()) {
      events.push({
        type: 'position',
        account,
        market_id: marketId,
        position: this.ledger.positionRecord(account, marketId),
      });
    }
    for (const account of collector.balances)
      events.push({ type: 'balance', account, balance: this.ledger.balanceRecord(account) });
    for (const marketId of [...collector.books].sort((a, b) => a - b))
      events.push({ type: 'book', market_id: marketId });
    return events;
  }

  private spec(marketId: number): MarketSpec {
    const market = this.specs.get(marketId);
    if (market === undefined)
      throw new ExchangeRefusal('NotFound', `market ${marketId} does not exist`, ['list markets with GET /v1/markets']);
    return market;
  }

  private address(account: string): Address {
    const known = this.addresses.get(account);
    if (known !== undefined) return known;
    let address: Address;
    try {
      address = parseAddress(account, 'account');
    } catch {
      throw invalidArgument(`account must be a 0x-prefixed 20-byte address, got ${JSON.stringify(account)}`);
    }
    // Checksumming hashes the address; remember the answer, within a bound.
    this.addresses.set(account, address);
    return address;
  }

  private registered(account: string): Address {
    const address = this.address(account);
    if (!this.ledger.isRegistered(address)) {
      throw new ExchangeRefusal('FailedPrecondition', `account ${address} is not registered (userId 0)`, [
        'an account is registered by its first collateral deposit',
      ]);
    }
    return address;
  }
}

/**
 * The record of the order's last order event: a placement always ends with one (resting,
 * filled or cancelled), built from the order's final state, so its answer takes that record
 * rather than building the same one again.
 */
function lastRecordOf(events: EventCollector, order: SimOrder): OrderRecord | undefined {
  const list = events.events;
  for (let i = list.length - 1; i >= 0; i--) {
    const event = list[i];
    if (event?.type === 'order' && event.order.order_id === order.orderId) return event.order;
  }
  return undefined;
}
