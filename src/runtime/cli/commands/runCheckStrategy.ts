import type { StrategyDefinition } from '../../../strategy/strategyDefinition.js';
import { describeUnknownKey, unknownParamKeys } from '../../../strategy/unknownParamKeys.js';
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { loadConfig } from '../../config/loadConfig.js';
import { loadStrategyModule } from '../../bot/wiring/loadStrategies.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { stringFlag } from '../parseCommandArgs.js';
import { typeCheckStrategy } from './typeCheckStrategy.js';

/**
 * `perpbot check FILE`: types, then the module, then its params; each step prints one line, and
 * every problem is printed before the exit code says whether all passed.
 */
export async function runCheckStrategy(args: ParsedArgs, io: CliIo): Promise<number> {
  const given = args.positionals[0] ?? '';
  const file = resolve(io.cwd, given);
  if (!existsSync(file))
    throw new CliUsageError(`perpbot check: no file ${given}`, [
      'give the path of a strategy module, e.g. strategies/mine.ts',
    ]);
  const shown = relative(io.cwd, file) || given;
  const out = (line: string) => io.stdout.write(`${line}\n`);
  let ok = true;

  const types = typeCheckStrategy(file);
  if (types.ok)
    out(
      `types   ok (TypeScript ${types.typescriptVersion}${types.tsconfig === undefined ? ', strict defaults' : `, ${relative(io.cwd, types.tsconfig)}`})`,
    );
  else {
    ok = false;
    out(`types   ${types.problems.length} problem(s):`);
    for (const problem of types.problems) out(`  ${problem.replace(/\n/g, '\n  ')}`);
  }

  let definition;
  try {
    definition = await loadStrategyModule(file, io.cwd, shown);
    out(`module  ok: strategy "${definition.name}" (${definition.description})`);
  } catch (error) {
    out(`module  ${error instanceof Error ? error.message : String(error)}`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    if (cause !== undefined) out(`  cause: ${cause.split('\n')[0]}`);
    return 1;
  }

  for (const { label, params } of await paramSets(args, io, file))
    if (!checkParams(definition.params, label, params, out)) ok = false;
  out(ok ? `${shown}: ok` : `${shown}: not ok`);
  return ok ? 0 : 1;
}

/** One params set against the schema (unknown keys first, then the schema's own issues): false on any problem. */
function checkParams(
  schema: StrategyDefinition['params'],
  label: string,
  params: unknown,
  out: (line: string) => void,
): boolean {
  const unknown = unknownParamKeys(schema, params ?? {});
  const result = schema.safeParse(params);
  const issues = [
    ...unknown.map((u) => ({ path: u.path, message: describeUnknownKey(u) })),
    ...(result.success ? [] : result.error.issues),
  ];
  if (issues.length === 0 && result.success) {
    out(`params  ok (${label}): ${JSON.stringify(result.data)}`);
    return true;
  }
  for (const issue of issues)
    out(`params  ${label}${issue.path.length === 0 ? '' : `.${issue.path.map(String).join('.')}`}: ${issue.message}`);
  return false;
}

/** The params to validate: --params, each config entry naming the file, or {} (the defaults). */
async function paramSets(args: ParsedArgs, io: CliIo, file: string): Promise<{ label: string; params: unknown }[]> {
  const json = stringFlag(args, 'params');
  const configPath = stringFlag(args, 'config');
  const sets: { label: string; params: unknown }[] = [];
  if (json !== undefined) {
    try {
      sets.push({ label: '--params', params: JSON.parse(json) as unknown });
    } catch (error) {
      throw new CliUsageError(
        `perpbot check: --params is not JSON (${error instanceof Error ? error.message : String(error)})`,
        ['e.g. --params \'{"size":"0.001"}\''],
      );
    }
  }
  if (configPath !== undefined) {
    const config = await loadConfig({ path: resolve(io.cwd, configPath), env: io.env });
    config.strategies.forEach((entry, index) => {
      if (resolve(io.cwd, entry.module) === file)
        sets.push({ label: `strategies[${index}].params`, params: entry.params });
    });
    if (sets.length === (json === undefined ? 0 : 1))
      throw new CliUsageError(`perpbot check: no strategies: entry of ${configPath} names ${relative(io.cwd, file)}`, [
        'check the module: path of its entries',
      ]);
  }
  if (sets.length === 0) sets.push({ label: 'defaults {}', params: {} });
  return sets;
}
