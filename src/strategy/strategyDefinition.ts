import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Intent } from '../engine/intents/intents.js';
import type { StrategyContext } from './strategyContext.js';

/**
 * A strategy plugin: a module in strategies/ exporting one definition. It receives a context of
 * streams and snapshots and returns the intents it wants; it never signs, sees a key or calls
 * HTTP. Unsubscribing from the returned Observable is its teardown.
 */
export interface StrategyDefinition<P = unknown> {
  readonly name: string;
  readonly description: string;
  /** Validates the `params` block of the strategy's config entry. */
  readonly params: z.ZodType<P>;
  run(context: StrategyContext<P>): Observable<Intent>;
  /**
   * The streams the strategy's decisions depend on and how old each may be (ms), per market it
   * trades: `{ book: 2000, mark: 1000 }`. While one is older, only this strategy is reduce-only
   * (opening intents refused with FEED_STALE); it lifts by itself when the stream is fresh again.
   * The config entry's `freshness:` overrides these values.
   */
  readonly freshness?: FreshnessBudget;
  /**
   * When `run` may start: its first emission says so. Without it the host waits until every
   * market of the strategy has a mark and a book and the engine is trading (private feeds
   * reconciled); `run`'s own mark and book streams then give the latest value at once.
   */
  ready?(context: StrategyContext<P>): Observable<unknown>;
  /** Runs before the wait for readiness (loading state, checking the markets). */
  onStart?(context: StrategyContext<P>): void | Promise<void>;
  /**
   * Runs when the strategy stops (shutdown, or done), after `run` was unsubscribed. The intents it
   * returns (an array, or an Observable that completes) are sent before the bot shuts down, and
   * waited for until each has an outcome, within `shutdown.timeout_ms`: e.g. close the position.
   */
  onStop?(context: StrategyContext<P>): void | FinalIntents | Promise<void | FinalIntents>;
}

/** What `onStop` may return: the strategy's last intents. */
export type FinalIntents = readonly Intent[] | Observable<Intent>;

/** The market streams a strategy can declare a freshness budget on. */
export const FRESHNESS_CHANNELS = ['book', 'mark', 'trades'] as const;
export type FreshnessChannel = (typeof FRESHNESS_CHANNELS)[number];
/** Longest age (ms) each stream may reach before the strategy turns reduce-only. */
export type FreshnessBudget = Readonly<Partial<Record<FreshnessChannel, number>>>;

/**
 * Identity with inference, so `params` types flow into `run`. The argument's `params` is the schema
 * itself (S), not also a `z.ZodType<z.infer<S>>`: relating a zod object schema to that type is a
 * structural comparison of all of zod's schema interface, which was most of a strategy's type
 * check (about 2.5 of 3 s of checking for the `perpbot new` template). Every error the
 * intersection caught is still caught, and S is a schema whose output is `z.infer<S>`.
 */
export function defineStrategy<S extends z.ZodType>(
  definition: Omit<StrategyDefinition<z.infer<S>>, 'params'> & { readonly params: S },
): StrategyDefinition<z.infer<S>> {
  return definition as StrategyDefinition<z.infer<S>>;
}

export function isStrategyDefinition(value: unknown): value is StrategyDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['name'] === 'string' &&
    typeof v['run'] === 'function' &&
    typeof v['params'] === 'object' &&
    v['params'] !== null
  );
}
