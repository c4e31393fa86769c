import type { z } from 'zod';
import { configErrorFromZod } from './configErrorFromZod.js';
import { deepFreeze } from './deepFreeze.js';

/**
 * Validates one strategy's opaque `params` with the strategy's own zod schema. Errors read like
 * every other config error: `config error at strategies[0].params.spread_bps: expected a positive
 * number, got "abc"`. The result is deeply frozen.
 */
export function parseStrategyParams<S extends z.ZodType>(
  schema: S,
  params: unknown,
  strategyIndex: number,
): z.output<S> {
  const result = schema.safeParse(params);
  if (!result.success) {
    throw configErrorFromZod(result.error, params, { schema, basePath: ['strategies', strategyIndex, 'params'] });
  }
  return deepFreeze(result.data);
}
