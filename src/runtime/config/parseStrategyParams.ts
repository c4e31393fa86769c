import type { z } from 'zod';
import { describeUnknownKey, unknownParamKeys } from '../../strategy/unknownParamKeys.js';
import { ConfigError, formatConfigPath, type ConfigProblem } from './configError.js';
import { configErrorFromZod } from './configErrorFromZod.js';
import { deepFreeze } from './deepFreeze.js';

/**
 * Validates one strategy's opaque `params` with the strategy's own zod schema. Errors read like
 * every other config error: `config error at strategies[0].params.spread_bps: expected a positive
 * number, got "abc"`. A key the schema does not know is refused as in the config's own blocks
 * (`unknown key "spred_bps" (did you mean "spread_bps"?)`), whether or not the author made the
 * schema strict. The result is deeply frozen.
 */
export function parseStrategyParams<S extends z.ZodType>(
  schema: S,
  params: unknown,
  strategyIndex: number,
): z.output<S> {
  const basePath = ['strategies', strategyIndex, 'params'];
  const unknown: ConfigProblem[] = unknownParamKeys(schema, params ?? {}).map((u) => ({
    path: formatConfigPath([...basePath, ...u.path]),
    problem: describeUnknownKey(u),
  }));
  const result = schema.safeParse(params);
  const schemaProblems = result.success ? [] : configErrorFromZod(result.error, params, { schema, basePath }).problems;
  const [first, ...rest] = [...unknown, ...schemaProblems];
  if (first !== undefined)
    throw new ConfigError([first, ...rest], { hints: ["fix the strategy's params in the config file"] });
  return deepFreeze((result as { data: z.output<S> }).data);
}
