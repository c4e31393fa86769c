import { BehaviorSubject, filter, Subject } from 'rxjs';
import type { z } from 'zod';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { Intent, IntentKind, Side } from '../engine/intents/intents.js';
import type { MarketView } from '../engine/checks/marketView.js';
import type { OrderEvent } from '../strategy/orderEvents.js';
import type { StrategyStreams } from '../strategy/strategyContext.js';
import type { StrategyDefinition } from '../strategy/strategyDefinition.js';
import { StrategyHost, type ExecutionPort, type StrategyStatus } from '../strategy/strategyHost.js';
import type {
  BookLevel,
  BookView,
  MarkPrice,
  PnlView,
  StateSnapshot,
  TradeView,
  TradingStateView,
} from '../strategy/strategyViews.js';
import { memoryStorage, recordingLogger, type KitLogLine } from './kitSupport.js';
import { PaperExchange, type FillModel, type Responder, type ScriptedOutcome } from './paperExchange.js';
import { PaperOrderEvents } from './paperOrderEvents.js';
import { VirtualTime } from './virtualTime.js';

/** A market of the kit: its grid (defaults: tick 0.1, step 0.001, minimum size 0.001). */
export interface KitMarket {
  readonly tick?: string;
  readonly step?: string;
  readonly minSize?: string;
  readonly maxLeverage?: string;
  /** The mark before the first scripted one (the venue's market read). Default "0" until `mark()` is called. */
  readonly mark?: string;
}

export interface StrategyTestOptions<P> {
  /** The strategy's config params (parsed by its schema, as at start-up). */
  readonly params?: z.input<z.ZodType<P>>;
  /** Markets the strategy trades (default [1]). */
  readonly markets?: readonly number[];
  /** Per-market grid; markets not listed take the defaults. */
  readonly marketConfig?: Readonly<Record<number, KitMarket>>;
  /** Instance name (default the definition's name). */
  readonly name?: string;
  /** Virtual start time, Unix ms (default 2026-01-01T00:00:00Z). */
  readonly startMs?: number;
  /** `touch` (default): orders fill when the scripted book or trades reach them; `none`: only `fill()` fills. */
  readonly fillModel?: FillModel;
  /** Fee rates as fractions of notional (default maker 0.0001, taker 0.0004). */
  readonly fees?: { readonly maker: string; readonly taker: string };
  /** Starting USDC balance (default "100000"). */
  readonly balance?: string;
  /** Saved state to start from (e.g. another kit's `storage` after a simulated restart). */
  readonly storage?: ReadonlyMap<string, unknown>;
  /** Wait for a mark, a book and trading before `run` (default true, as the runtime). */
  readonly waitUntilReady?: boolean;
  /** How long `stop()` lets onStop and its final intents take, in virtual ms (default 10 s). */
  readonly stopTimeoutMs?: number;
  /** Also print log lines (default: only recorded in `logs`). */
  readonly printLogs?: boolean;
}

/** Book levels as `[price, quantity]` pairs or level objects. */
export type KitLevels = readonly (readonly [string, string] | BookLevel)[];

/**
 * A strategy running in virtual time against scripted streams: the same host, context and
 * lifecycle as the runtime, with a paper exchange instead of the engine. Script the market
 * (`mark`, `book`, `trade`), let time pass (`advance`), and assert on `intents`, `outcomes`,
 * `orderEvents`, positions and storage. Every scripting call returns a promise that settles once
 * the strategy and the exchange have reacted; await it before asserting.
 */
export class StrategyTest<P = unknown> {
  /** Every intent the strategy emitted, in order (including those refused). */
  readonly intents: Intent[] = [];
  readonly outcomes: IntentOutcome[] = [];
  readonly orderEvents: OrderEvent[] = [];
  readonly logs: KitLogLine[] = [];
  readonly time: VirtualTime;
  readonly exchange: PaperExchange;
  private readonly paperEvents: PaperOrderEvents;
  private readonly storageMap: Map<string, unknown>;
  private readonly marks = new Subject<MarkPrice>();
  private readonly books = new Subject<BookView>();
  private readonly trades$ = new Subject<TradeView>();
  private readonly trading = new BehaviorSubject<TradingStateView>({ mode: 'trading', reasons: [], sinceMs: 0 });
  private readonly host: StrategyHost;
  private block = 0;
  private stopped = false;

  constructor(
    readonly definition: StrategyDefinition<P>,
    private readonly options: StrategyTestOptions<P> = {},
  ) {
    this.time = new VirtualTime(options.startMs);
    const marketIds = options.markets ?? [1];
    this.exchange = new PaperExchange({
      clock: this.time,
      markets: marketIds.map((id) => kitMarket(id, options.marketConfig?.[id])),
      fillModel: options.fillModel ?? 'touch',
      fees: options.fees ?? { maker: '0.0001', taker: '0.0004' },
      balance: options.balance ?? '100000',
    });
    this.storageMap = new Map(options.storage ?? []);
    this.exchange.outcomes$.subscribe((o) => this.outcomes.push(o));
    this.paperEvents = new PaperOrderEvents({
      now: () => this.time.now(),
      position: (marketId) => this.exchange.position(marketId),
    });
    this.exchange.outcomes$.subscribe((o) => this.paperEvents.onOutcome(o));
    this.exchange.orderUpdates$.subscribe((u) => this.paperEvents.onOrder(u));
    this.host = new StrategyHost({
      strategies: [
        {
          name: options.name ?? definition.name,
          definition: definition,
          params: options.params ?? {},
          markets: marketIds,
          onError: 'cancel',
          configPath: 'params',
        },
      ],
      streams: this.scriptedStreams(),
      state: paperState(this.exchange),
      execution: this.paperExecution(),
      orderEvents: this.paperEvents.events$,
      logger: recordingLogger(this.logs, options.printLogs === true),
      clock: this.time,
      scheduler: this.time,
      runId: 'test',
      storage: () => memoryStorage(this.storageMap),
      waitUntilReady: options.waitUntilReady ?? true,
      stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
    });
    this.paperEvents.events$.subscribe((e) => this.orderEvents.push(e));
  }

  /** The market as scripted (`mark`, `book`, `trade`), the account as the paper exchange keeps it. */
  private scriptedStreams(): StrategyStreams {
    const exchange = this.exchange;
    return {
      mark: (m) => this.marks.pipe(filter((x) => x.marketId === m)),
      book: (m) => this.books.pipe(filter((x) => x.marketId === m)),
      trades: (m) => this.trades$.pipe(filter((x) => x.marketId === m)),
      fills: () => exchange.fills$,
      positions: () => exchange.positions$,
      orders: () => exchange.orders$,
      balance: () => exchange.balance$,
      tradingState: () => this.trading,
    };
  }

  /** The paper exchange in the engine's place; every intent is also recorded in `intents`. */
  private paperExecution(): ExecutionPort {
    const exchange = this.exchange;
    return {
      submit: (intent) => {
        this.intents.push(intent);
        this.paperEvents.onIntent(intent);
        // The engine answers asynchronously: so does the kit, on the next microtask.
        queueMicrotask(() => exchange.submit(intent));
      },
      outcomes: exchange.outcomes$,
      cancelOrdersOf: (strategy) => {
        this.paperEvents.cancelRequestedFor(strategy);
        for (const o of exchange.openOrders())
          if (o.strategy === strategy && o.intentId !== undefined) exchange.endOrder(o.intentId);
        return Promise.resolve();
      },
    };
  }

  /** Starts the strategy (params checked, onStart, then `run` once ready); rejects as start-up would (bad params). */
  async start(): Promise<this> {
    let failure: { error: unknown } | undefined;
    // onStart may wait on virtual time: start-up goes on in the background while time is advanced.
    this.host.start().catch((error: unknown) => (failure = { error }));
    await this.time.settle();
    if (failure !== undefined) throw failure.error;
    return this;
  }

  /** The strategy's status: waiting, running, stopping, done, stopped or failed. */
  get status(): StrategyStatus | undefined {
    return this.host.statuses().get(this.options.name ?? this.definition.name);
  }

  /** A new mark (the market view's mark too). */
  mark(marketId: number, markPrice: string): Promise<void> {
    this.exchange.setMark(marketId, markPrice);
    this.marks.next({ marketId, markPrice, blockNumber: ++this.block });
    return this.time.settle();
  }

  /** A new full book; resting orders it reaches fill (fill model `touch`). */
  book(marketId: number, levels: { readonly bids?: KitLevels; readonly asks?: KitLevels }): Promise<void> {
    const book: BookView = { marketId, bids: toLevels(levels.bids), asks: toLevels(levels.asks) };
    this.books.next(book);
    this.exchange.setBook(book);
    return this.time.settle();
  }

  /** A public trade; resting orders at or through its price fill (fill model `touch`). */
  trade(
    marketId: number,
    trade: { readonly price: string; readonly size: string; readonly aggressorSide: Side },
  ): Promise<void> {
    const view: TradeView = {
      marketId,
      price: trade.price,
      size: trade.size,
      aggressorSide: trade.aggressorSide,
      makerSide: trade.aggressorSide === 'buy' ? 'sell' : 'buy',
      timeMs: this.time.now(),
    };
    this.trades$.next(view);
    this.exchange.onTrade(view);
    return this.time.settle();
  }

  /** Fills a resting order of the strategy (by intent id): all that is left, or `size`, at its limit or `price`. */
  fill(intentId: string, size?: string, price?: string): Promise<void> {
    this.exchange.fillOrder(intentId, size, price);
    return this.time.settle();
  }

  /** Ends a resting order without a cancel of the strategy's (the venue cancelled it, or its time ran out). */
  endOrder(intentId: string): Promise<void> {
    this.exchange.endOrder(intentId);
    return this.time.settle();
  }

  /** Sets the account's position (as the venue would report it). */
  position(marketId: number, side: Side, size: string, entryPrice: string): Promise<void> {
    this.exchange.setPosition(marketId, side, size, entryPrice);
    return this.time.settle();
  }

  /** The engine's trading state (degraded: as while the private feeds are down). */
  tradingState(mode: TradingStateView['mode'], reasons: readonly string[] = []): Promise<void> {
    this.trading.next({ mode, reasons, sinceMs: this.time.now() });
    return this.time.settle();
  }

  /** Answers intents before the fill model: the first responder returning an outcome decides. */
  respond(responder: Responder): this {
    this.exchange.respond(responder);
    return this;
  }

  /** The next intent of `kind` (any kind when omitted) gets `outcome`. */
  respondOnce(outcome: ScriptedOutcome, kind?: IntentKind): this {
    let used = false;
    this.exchange.respond((intent) => {
      if (used || (kind !== undefined && intent.kind !== kind)) return undefined;
      used = true;
      return outcome;
    });
    return this;
  }

  /** Lets `ms` of virtual time pass, running the strategy's timers on the way. */
  advance(ms: number): Promise<void> {
    return this.time.advance(ms);
  }

  /** Lets pending work settle without moving time. */
  settle(): Promise<void> {
    return this.time.settle();
  }

  /** Stops the strategy as a shutdown does: its onStop runs and its final intents are answered. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    let finished = false;
    const stopping = this.host.stop().finally(() => (finished = true));
    // The stop timeout runs on virtual time: let it pass in steps until the host has stopped.
    const limit = this.time.now() + (this.options.stopTimeoutMs ?? 10_000) + 1;
    while (!finished && this.time.now() < limit) await this.time.advance(100);
    await stopping;
  }

  /** Intents of one kind, narrowed. */
  intentsOf<K extends IntentKind>(kind: K): Extract<Intent, { kind: K }>[] {
    return this.intents.filter((i): i is Extract<Intent, { kind: K }> => i.kind === kind);
  }

  /** The saved state, e.g. to start another kit from it (a restart). */
  get storage(): ReadonlyMap<string, unknown> {
    return new Map(this.storageMap);
  }

  /** The strategy's own PnL at the current marks. */
  pnl(): PnlView {
    return this.host.pnlOf(this.options.name ?? this.definition.name);
  }
}

/** Creates a kit and starts the strategy in it. */
export async function strategyTest<P>(
  definition: StrategyDefinition<P>,
  options: StrategyTestOptions<P> = {},
): Promise<StrategyTest<P>> {
  return new StrategyTest(definition, options).start();
}

function kitMarket(id: number, m: KitMarket | undefined): MarketView {
  return {
    market_id: String(id),
    mark_price: m?.mark ?? '0',
    config: {
      step_price: m?.tick ?? '0.1',
      step_size: m?.step ?? '0.001',
      min_order_size: m?.minSize ?? '0.001',
      ...(m?.maxLeverage === undefined ? {} : { max_leverage: m.maxLeverage }),
    },
  };
}

function toLevels(levels: KitLevels | undefined): BookLevel[] {
  return (levels ?? []).map((l) => ('price' in l ? l : { price: l[0], quantity: l[1] }));
}

/** The account and markets as the paper exchange holds them, read as the strategy's state snapshot. */
function paperState(exchange: PaperExchange): StateSnapshot {
  return {
    markets: () => exchange.allMarkets(),
    market: (m) => exchange.market(m),
    position: (m) => exchange.position(m),
    openOrders: (m) => exchange.openOrders(m),
    balance: () => exchange.balance$.value,
  };
}
