import { parseStrategyParams } from '../../config/parseStrategyParams.js';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PerpbotError } from '../../../core/perpbotError.js';
import { isStrategyDefinition, type StrategyDefinition } from '../../../strategy/strategyDefinition.js';
import type { HostedStrategy } from '../../../strategy/strategyHost.js';
import type { Config } from '../../config/configSchema.js';
import { defaultExportOf, ensureTypeScriptLoader, needsTypeScriptLoader } from './typescriptLoader.js';

/** A strategy module that is missing or does not export a strategy definition. */
export class StrategyLoadError extends PerpbotError {}

// The example strategies of an installed package (built into dist/examples by the package build).
const PACKAGED_EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples');

/** True for an example strategy shipped in the installed package (checked by perpbot's CI, not at each start). */
export function isPackagedExample(file: string): boolean {
  return resolve(file).startsWith(PACKAGED_EXAMPLES + sep);
}

/**
 * Where a configured module is: a path under strategies/ (or ./) relative to `root`, an absolute
 * path, or a package name. A `strategies/` path that is not under `root` but names an example
 * shipped with the installed package (`strategies/marketMaker.ts`) is that example.
 */
export function strategySpecifier(module: string, root: string): string {
  if (isAbsolute(module)) return pathToFileURL(module).href;
  if (!module.startsWith('strategies/') && !module.startsWith('.//')) return module;
  const local = resolve(root, module);
  const packaged = join(PACKAGED_EXAMPLES, module);
  return pathToFileURL(
    !existsSync(local) && module.startsWith('strategies/') && existsSync(packaged) ? packaged : local,
  ).href;
}

/** Imports one strategy module and returns its definition (default export or `strategy`). */
export async function loadStrategyModule(module: string, root: string, where: string): Promise<StrategyDefinition> {
  const specifier = strategySpecifier(module, root);
  let loaded: Record<string, unknown>;
  try {
    if (needsTypeScriptLoader(specifier)) await ensureTypeScriptLoader();
    loaded = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    throw loadFailure(module, where, specifier, error);
  }
  const candidate = defaultExportOf(loaded) ?? loaded['strategy'];
  if (!isStrategyDefinition(candidate)) {
    throw new StrategyLoadError(`module "${module}" does not export a strategy (${where})`, {
      code: 'STRATEGY_INVALID',
      hints: ['export default defineStrategy({ name, description, params, run })'],
    });
  }
  return candidate;
}

/**
 * A module that is not there is "unknown"; one that is there but failed to compile or threw on
 * import says so with its first line, since a person starting the bot needs that line and
 * nothing else to fix it (the whole cause follows with --verbose).
 */
function loadFailure(module: string, where: string, specifier: string, error: unknown): StrategyLoadError {
  if (isMissing(specifier, error))
    return new StrategyLoadError(`unknown strategy module "${module}" (${where})`, {
      code: 'STRATEGY_NOT_FOUND',
      details: { module },
      hints: ['the path is relative to the directory perpbot starts in, e.g. strategies/marketMaker.ts'],
      cause: error,
    });
  return new StrategyLoadError(`strategy module "${module}" (${where}) failed to load: ${firstLine(error)}`, {
    code: 'STRATEGY_INVALID',
    details: { module },
    hints: [`perpbot check ${module} shows every problem; --verbose prints the whole cause`],
    cause: error,
  });
}

/** True when the module itself was not found (not a missing import inside it). */
function isMissing(specifier: string, error: unknown): boolean {
  if (specifier.startsWith('file:')) return !existsSync(fileURLToPath(specifier));
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return code === 'ERR_MODULE_NOT_FOUND' && error instanceof Error && error.message.includes(`'${specifier}'`);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0] ?? text;
}

/**
 * Imports each configured strategy module (a path under strategies/, relative to `root`, or a
 * package name), checks it exports a definition (default export or `strategy`) and that its
 * params pass its schema with no key the schema does not know.
 */
export async function loadStrategies(config: Config, root: string): Promise<HostedStrategy[]> {
  const hosted: HostedStrategy[] = [];
  for (const [index, entry] of config.strategies.entries()) {
    const definition = await loadStrategyModule(entry.module, root, `strategies[${index}].module`);
    hosted.push({
      name: entry.name,
      definition,
      params: entry.params,
      markets: [...entry.markets],
      onError: entry.on_error,
      configPath: `strategies[${index}].params`,
    });
  }
  // Before anything touches the venue: a typo in a param is a config error, not a silent default.
  hosted.forEach((strategy, index) => parseStrategyParams(strategy.definition.params, strategy.params, index));
  return hosted;
}
