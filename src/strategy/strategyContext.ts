import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { IntentFactory } from './intentFactory.js';
import type { OrderEvent } from './orderEvents.js';
import type { StrategyClock } from './strategyClock.js';
import type {
  BookView,
  Candle,
  FillView,
  MarkPrice,
  OpenOrderSnapshot,
  PnlView,
  PositionSnapshot,
  StateSnapshot,
  TopOfBook,
  TradeView,
  TradingStateView,
} from './strategyViews.js';
import type { Logger } from '../core/logger.js';

/** The logger a strategy gets: bound to its name; the project's one `Logger` (pino-compatible). */
export type StrategyLogger = Logger;

/**
 * The venue's channels as streams. Reconnects are invisible here: a stream never completes
 * because the connection dropped. Raw channel messages are available for strategies that need
 * more than the views.
 */
export interface StrategyStreams {
  /** The full book of a market after every change. */
  book(marketId: number): Observable<BookView>;
  /** Mark (and index) price of a market, once per block. */
  mark(marketId: number): Observable<MarkPrice>;
  /** Public trades of a market: decimal price and size, maker and aggressor side, time. */
  trades(marketId: number): Observable<TradeView>;
  /** This account's fills, with the strategy whose order filled and the venue's time. */
  fills(): Observable<FillView>;
  /** This account's positions after every change. */
  positions(): Observable<readonly PositionSnapshot[]>;
  /** This account's open orders after every change. */
  orders(): Observable<readonly OpenOrderSnapshot[]>;
  /** Balance updates (USDC decimal). */
  balance(): Observable<string>;
  /**
   * Whether the engine trades: the current state first, then every change. `degraded` while the
   * private feeds are down or not yet reconciled (opening intents are refused with FEED_DOWN,
   * cancels and reduce-only orders go through; it lifts by itself); `halted` while a kill switch
   * is tripped, the account's or (given `strategy`) that strategy's own (only cancels and closes
   * go, until it is reset); `stopped` for good.
   */
  tradingState(strategy?: string): Observable<TradingStateView>;
}

/**
 * The streams a strategy reads (`ctx.streams`): the runtime's, plus conveniences derived from them.
 * `mark` and `book` give the latest value at once to a new subscriber, then every change.
 */
export interface ContextStreams extends StrategyStreams {
  /** Best bid and ask (with spread and mid), each time either changes. */
  topOfBook(marketId: number): Observable<TopOfBook>;
  /** OHLCV candles of the market's public trades, one per `intervalMs` on the strategy clock. */
  candles(marketId: number, intervalMs: number): Observable<Candle>;
}

/** PnL as a strategy sees it, read at the current marks. */
export interface StrategyPnl {
  /** Every fill of the account since the bot started (positions held at start count from their entry price). */
  session(): PnlView;
  /** This strategy's own fills since the bot started. */
  own(): PnlView;
}

/** Small JSON state a strategy keeps across restarts (in the journal), validated on load. */
export interface StrategyStorage {
  /** The value saved under `key`, checked by the strategy's schema; undefined when none was saved. */
  load<T>(key: string, schema: z.ZodType<T>): T | undefined;
  /** Durable when it returns. */
  save(key: string, value: unknown): void;
  delete(key: string): void;
}

export interface StrategyContext<P = unknown> {
  readonly name: string;
  readonly params: P;
  /** The markets this strategy trades (from its config entry). */
  readonly markets: readonly number[];
  readonly streams: ContextStreams;
  readonly state: StateSnapshot;
  /** Outcomes of this strategy's own intents only: one per intent (see IntentOutcome). */
  readonly outcomes: Observable<IntentOutcome>;
  /** The life of each of this strategy's orders, keyed by intent id: placed, partially filled, then one end. */
  readonly orderEvents: Observable<OrderEvent>;
  /** Session and own PnL at the current marks. */
  readonly pnl: StrategyPnl;
  /**
   * The engine's trading state for this strategy now (`streams.tradingState()` gives every change):
   * while it is not `trading`, opening intents are refused, so a strategy may as well wait.
   */
  tradingState(): TradingStateView;
  /** Builds intents stamped with this strategy's name and fresh intent ids. */
  readonly intents: IntentFactory;
  readonly log: StrategyLogger;
  /** Engine time, and the scheduler to give RxJS timing operators (virtual time in the test kit). */
  readonly clock: StrategyClock;
  /**
   * Declares the strategy finished: `run` is unsubscribed and `onStop` runs (its final intents are
   * sent). With `shutdown.when_all_done: stop` the bot stops once every strategy is done. (`run`
   * completing does not: subscriptions the strategy made itself may still be at work.)
   */
  done(reason?: string): void;
  /** Present when the runtime keeps a journal. */
  readonly storage?: StrategyStorage;
}
