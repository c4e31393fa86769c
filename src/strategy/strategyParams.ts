import type { StrategyDefinition } from './strategyDefinition.js';
import { StrategyParamsError } from './strategyParamsError.js';
import { unknownParamKeys } from './unknownParamKeys.js';

/** What a strategy's params are checked against, and where they sit in the config. */
export interface ParamsSource {
  readonly name: string;
  readonly definition: Pick<StrategyDefinition, 'params'>;
  readonly params: unknown;
  /** "strategies[0].params", for error messages. */
  readonly configPath: string;
}

/**
 * A strategy's params parsed by its own schema, after refusing any key the schema does not know
 * (a typo would otherwise run with the default). Throws StrategyParamsError naming the key.
 */
export function parseStrategyParams(source: ParamsSource): unknown {
  const input = source.params ?? {};
  const unknown = unknownParamKeys(source.definition.params, input);
  if (unknown.length > 0) throw StrategyParamsError.unknownKeys(source.name, source.configPath, unknown);
  const result = source.definition.params.safeParse(input);
  if (!result.success) throw new StrategyParamsError(source.name, source.configPath, result.error.issues);
  return result.data;
}
