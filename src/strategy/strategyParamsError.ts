import type { z } from 'zod';
import { PerpbotError } from '../core/perpbotError.js';

/** A strategy's `params` block failed its own schema: names the config path and the value. */
export class StrategyParamsError extends PerpbotError {
  constructor(strategy: string, configPath: string, issues: readonly z.core.$ZodIssue[]) {
    const first = issues[0];
    const where =
      first === undefined || first.path.length === 0 ? configPath : `${configPath}.${first.path.map(String).join('.')}`;
    super(`config error at ${where}: ${first?.message ?? 'invalid params'} (strategy ${strategy})`, {
      code: 'STRATEGY_PARAMS',
      details: { strategy, path: where, issues: issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
      hints: [`fix the params of strategy "${strategy}" in the config file`],
    });
  }
}
