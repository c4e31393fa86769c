import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { NonTradingConfig } from '../config/configSchema.js';
import { isPackagedExample, strategySpecifier, StrategyLoadError } from '../bot/wiring/loadStrategies.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { StrategyTypeCache } from './strategyTypeCache.js';

/**
 * `perpbot start` runs only strategies that `perpbot check` passes: each configured TypeScript
 * module of the user's is type-checked (once per change: StrategyTypeCache) before anything is
 * imported or the venue is touched, and a type error refuses the start with the problems
 * `perpbot check` prints. Packaged examples and compiled modules are not checked here.
 */
export async function checkStrategyTypes(
  config: Pick<NonTradingConfig, 'strategies'>,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  log: Pick<Logger, 'info'>,
): Promise<void> {
  const cache = StrategyTypeCache.open(env);
  for (const [index, entry] of config.strategies.entries()) {
    const file = userTypeScriptFile(entry.module, cwd);
    if (file === undefined) continue;
    const key = cache.keyOf(file);
    if (key !== undefined && cache.passed(key)) {
      log.info({ module: entry.module, checked: 'before, unchanged since' }, 'strategy types ok');
      continue;
    }
    const started = performance.now();
    const { typeCheckStrategy } = await import('./commands/typeCheckStrategy.js');
    const result = typeCheckStrategy(file);
    if (!result.ok)
      throw new StrategyLoadError(
        `strategy module "${entry.module}" (strategies[${index}].module) does not type-check (${result.problems.length} problem(s)):\n${result.problems.join('\n')}`,
        {
          code: 'STRATEGY_INVALID',
          details: { module: entry.module, problems: result.problems },
          hints: [`perpbot check ${entry.module} reports the same; start runs a strategy only once it passes`],
        },
      );
    if (key !== undefined) cache.remember(key, file, result.files);
    log.info({ module: entry.module, ms: Math.round(performance.now() - started) }, 'strategy types ok');
  }
}

/** The module's file when it is TypeScript of the user's (not a packaged example, not a package); else undefined. */
function userTypeScriptFile(module: string, cwd: string): string | undefined {
  const specifier = strategySpecifier(module, cwd);
  if (!specifier.startsWith('file:')) return undefined;
  const file = fileURLToPath(specifier);
  if (!/\.[cm]?ts$/.test(file) || !existsSync(file) || isPackagedExample(file)) return undefined;
  return file;
}
