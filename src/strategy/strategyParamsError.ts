import type { z } from 'zod';
import { PerpbotError } from '../core/perpbotError.js';
import { describeUnknownKey, type UnknownParamKey } from './unknownParamKeys.js';

/**
 * A strategy's `params` block failed its own schema, or names a key it does not know: names the
 * config path and the value.
 */
export class StrategyParamsError extends PerpbotError {
  constructor(strategy: string, configPath: string, issues: readonly z.core.$ZodIssue[]) {
    const first = issues[0];
    super(
      `config error at ${pathOf(configPath, first?.path ?? [])}: ${first?.message ?? 'invalid params'} (strategy ${strategy})`,
      {
        code: 'STRATEGY_PARAMS',
        details: {
          strategy,
          path: pathOf(configPath, first?.path ?? []),
          issues: issues.map((i) => ({ path: i.path.map(String), message: i.message })),
        },
        hints: [`fix the params of strategy "${strategy}" in the config file`],
      },
    );
  }

  /** Keys the strategy's schema would have dropped silently (a typo runs with the default otherwise). */
  static unknownKeys(strategy: string, configPath: string, unknown: readonly UnknownParamKey[]): StrategyParamsError {
    return new StrategyParamsError(
      strategy,
      configPath,
      unknown.map((u) => ({ code: 'custom', path: [...u.path], message: describeUnknownKey(u), input: undefined })),
    );
  }
}

function pathOf(configPath: string, path: readonly PropertyKey[]): string {
  return path.length === 0 ? configPath : `${configPath}.${path.map(String).join('.')}`;
}
