import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { IntentOutcome } from '../engine/intentOutcome.js';
import type { IntentFactory } from './intentFactory.js';
import type { BookView, FillView, MarkPrice, OpenOrderSnapshot, PositionSnapshot, StateSnapshot } from './strategyViews.js';

/** The logger a strategy gets: bound to its name, pino-compatible. */
export interface StrategyLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

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
  /** Public trades of a market (decimal price and size). */
  trades(marketId: number): Observable<{ readonly price: string; readonly size: string; readonly makerSide: 'buy' | 'sell' }>;
  /** This account's fills. */
  fills(): Observable<FillView>;
  /** This account's positions after every change. */
  positions(): Observable<readonly PositionSnapshot[]>;
  /** This account's open orders after every change. */
  orders(): Observable<readonly OpenOrderSnapshot[]>;
  /** Balance updates (USDC decimal). */
  balance(): Observable<string>;
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
  readonly streams: StrategyStreams;
  readonly state: StateSnapshot;
  /** Outcomes of this strategy's own intents only. */
  readonly outcomes: Observable<IntentOutcome>;
  /** Builds intents stamped with this strategy's name and fresh intent ids. */
  readonly intents: IntentFactory;
  readonly log: StrategyLogger;
  readonly clock: Clock;
  /** Present when the runtime keeps a journal. */
  readonly storage?: StrategyStorage;
}
