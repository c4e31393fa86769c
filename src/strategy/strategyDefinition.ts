import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Intent } from '../engine/intents.js';
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
  onStart?(context: StrategyContext<P>): void | Promise<void>;
  onStop?(context: StrategyContext<P>): void | Promise<void>;
}

/** Identity with inference, so `params` types flow into `run`. */
export function defineStrategy<S extends z.ZodType>(definition: StrategyDefinition<z.infer<S>> & { params: S }): StrategyDefinition<z.infer<S>> {
  return definition;
}

export function isStrategyDefinition(value: unknown): value is StrategyDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['name'] === 'string' && typeof v['run'] === 'function' && typeof v['params'] === 'object' && v['params'] !== null;
}
