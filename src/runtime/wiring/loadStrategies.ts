import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PerpbotError } from '../../core/perpbotError.js';
import { isStrategyDefinition, type StrategyDefinition } from '../../strategy/strategyDefinition.js';
import type { HostedStrategy } from '../../strategy/strategyHost.js';
import type { Config } from '../config/configSchema.js';

/** A strategy module that is missing or does not export a strategy definition. */
export class StrategyLoadError extends PerpbotError {}

/**
 * Imports each configured strategy module (a path under strategies/, relative to `root`, or a
 * package name) and checks it exports a definition (default export or `strategy`).
 */
export async function loadStrategies(config: Config, root: string): Promise<HostedStrategy[]> {
  const hosted: HostedStrategy[] = [];
  for (const [index, entry] of config.strategies.entries()) {
    const specifier = entry.module.startsWith('strategies/') || entry.module.startsWith('./') ? pathToFileURL(resolve(root, entry.module)).href : entry.module;
    let module: Record<string, unknown>;
    try {
      module = (await import(isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier)) as Record<string, unknown>;
    } catch (error) {
      throw new StrategyLoadError(`unknown strategy module "${entry.module}" (strategies[${index}].module)`, {
        code: 'STRATEGY_NOT_FOUND',
        details: { module: entry.module },
        hints: ['the path is relative to the directory perpbot starts in, e.g. strategies/marketMaker.ts'],
        cause: error,
      });
    }
    const candidate = module['default'] ?? module['strategy'];
    if (!isStrategyDefinition(candidate)) {
      throw new StrategyLoadError(`module "${entry.module}" does not export a strategy (strategies[${index}].module)`, {
        code: 'STRATEGY_INVALID',
        hints: ['export default defineStrategy({ name, description, params, run })'],
      });
    }
    hosted.push({
      name: entry.name,
      definition: candidate as StrategyDefinition,
      params: entry.params,
      markets: [...entry.markets],
      onError: entry.on_error,
      configPath: `strategies[${index}].params`,
    });
  }
  return hosted;
}
