import { availableParallelism } from 'node:os';
import type { Config } from '../../config/configSchema.js';
import {
  CONSTRAINT_PATTERN,
  durationMs,
  SWEEP_OBJECTIVES,
  type ParamSpace,
  type ParamValue,
  type SweepSection,
} from '../../config/sweepSchema.js';
import { sweptStrategy } from '../../sweep/sweepRecordings.js';
import type { Shard } from '../../sweep/sweepPlan.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { integerFlag, stringFlag, stringsFlag } from '../parseCommandArgs.js';

/**
 * The sweep to run: the config's `sweep:` section with the command's flags over it (a flag wins
 * over the key it names; `--params` replaces the whole `params:`).
 */
export function sweepSectionOf(config: Config, args: ParsedArgs): SweepSection {
  const base = config.sweep;
  const strategy = stringFlag(args, 'strategy') ?? base?.strategy;
  const walk = walkForwardOf(args, base?.walk_forward);
  const sample = sampleOf(args, base?.sample);
  return {
    ...(strategy === undefined ? {} : { strategy }),
    params: paramsOf(config, args, strategy),
    ...(sample === undefined ? {} : { sample }),
    objective: objectiveFlag(args) ?? base?.objective ?? 'net_pnl',
    constraints: constraintsFlag(args) ?? base?.constraints ?? [],
    ...(walk === undefined ? {} : { walk_forward: walk }),
    top: integerFlag(args, 'top', 1, 1_000) ?? base?.top ?? 5,
    workers: integerFlag(args, 'workers', 0, 256) ?? base?.workers ?? 0,
  };
}

/**
 * `--param` (each one param) and `--params` (several, `;` apart), read against the swept strategy's
 * configured params, or the section's `params:` when neither is given.
 */
function paramsOf(config: Config, args: ParsedArgs, strategy: string | undefined): SweepSection['params'] {
  const parts = [...stringsFlag(args, 'param'), ...(stringFlag(args, 'params')?.split(';') ?? [])];
  if (parts.length > 0) return paramsFlag(parts, config.strategies[sweptStrategy(config, strategy)]!.params);
  if (config.sweep !== undefined) return config.sweep.params;
  throw new CliUsageError(
    'perpbot sweep: nothing to sweep: the config has no sweep: section and no --param was given',
    [
      'e.g. --param spread_bps=2,4,8 --param requote_bps=2..6:2, or a sweep: section (docs/strategy-guide.md, "Searching parameters")',
    ],
  );
}

/** Worker threads: as asked, or one per core (0), never more than the machine has twice over. */
export function workerCount(section: SweepSection): number {
  return section.workers === 0 ? availableParallelism() : section.workers;
}

/** `--shard i/n`: 1 <= i <= n. */
export function shardFlag(args: ParsedArgs): Shard | undefined {
  const text = stringFlag(args, 'shard');
  if (text === undefined) return undefined;
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index < 1 || count < 1 || index > count)
    throw new CliUsageError(`--shard: invalid value ${JSON.stringify(text)}; expected I/N with 1 <= I <= N`, [
      'e.g. --shard 2/8 (the second of eight slices; a Kubernetes Indexed Job passes $((JOB_COMPLETION_INDEX+1))/8)',
    ]);
  return { index, count };
}

function objectiveFlag(args: ParsedArgs): SweepSection['objective'] | undefined {
  const text = stringFlag(args, 'objective');
  if (text === undefined) return undefined;
  const objective = SWEEP_OBJECTIVES.find((o) => o === text.trim());
  if (objective === undefined)
    throw new CliUsageError(
      `--objective: invalid value ${JSON.stringify(text)}; expected one of ${SWEEP_OBJECTIVES.join(', ')}`,
    );
  return objective;
}

function constraintsFlag(args: ParsedArgs): string[] | undefined {
  const text = stringFlag(args, 'constraints');
  if (text === undefined) return undefined;
  return text
    .split(',')
    .filter((c) => c.trim() !== '')
    .map((c) => {
      const match = CONSTRAINT_PATTERN.exec(c);
      if (match === null)
        throw new CliUsageError(`--constraints: invalid constraint ${JSON.stringify(c.trim())}`, [
          'e.g. --constraints "max_drawdown<=50,fills>=20" (figures: net_pnl, sharpe, max_drawdown, fills, quote_uptime, orders, volume, fees)',
        ]);
      return `${match[1]} ${match[2]} ${match[3]}`;
    });
}

function sampleOf(args: ParsedArgs, base: SweepSection['sample']): SweepSection['sample'] {
  const count = integerFlag(args, 'sample', 1, 100_000);
  const seed = integerFlag(args, 'seed', 0, 0xffff_ffff);
  if (count === undefined && base === undefined) return undefined;
  return { count: count ?? base!.count, seed: seed ?? base?.seed ?? 1 };
}

function walkForwardOf(args: ParsedArgs, base: SweepSection['walk_forward']): SweepSection['walk_forward'] {
  const [train, test, step] = (['train', 'test', 'step'] as const).map((name) => durationFlag(args, name));
  if (train === undefined && test === undefined) return base;
  if (train === undefined || test === undefined)
    throw new CliUsageError('perpbot sweep: walk-forward needs both --train and --test', [
      'e.g. --train 30m --test 10m',
    ]);
  return { train, test, ...(step === undefined ? {} : { step }) };
}

function durationFlag(args: ParsedArgs, name: string): number | undefined {
  const text = stringFlag(args, name);
  if (text === undefined) return undefined;
  const ms = durationMs(text);
  if (ms === undefined)
    throw new CliUsageError(`--${name}: invalid duration ${JSON.stringify(text)}; expected e.g. 90s, 30m, 2h`);
  return ms;
}

/**
 * The params to vary, one `name=values` each (`--param spread_bps=2,4,8`, or a part of `--params
 * "spread_bps=2,4,8;requote_bps=2..6:2"`): a list or a range (`min..max` or `min..max:step`). A value
 * takes the type the param has in the config (a quoted size stays a decimal string), or reads as a
 * number or true/false when the config leaves it to its default. A param named twice is refused.
 */
export function paramsFlag(
  parts: readonly string[],
  configured: Readonly<Record<string, unknown>>,
): Record<string, ParamSpace> {
  const out: Record<string, ParamSpace> = {};
  for (const part of parts.filter((p) => p.trim() !== '')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*$/.exec(part);
    if (match === null)
      throw new CliUsageError(`--param: cannot read ${JSON.stringify(part.trim())}; expected name=values`, [
        'e.g. --param spread_bps=2,4,8 --param size=0.001,0.002 --param requote_bps=2..6:2',
      ]);
    const [, name, values] = match as unknown as [string, string, string];
    if (name in out)
      throw new CliUsageError(`--param: ${name} is given twice`, [`list all its values once: --param ${name}=a,b,c`]);
    const kind = typeof configured[name];
    const range = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/.exec(values);
    if (range !== null) {
      const bound = (v: string | undefined) => (v === undefined ? undefined : kind === 'string' ? v : Number(v));
      const step = bound(range[3]);
      out[name] = { min: bound(range[1])!, max: bound(range[2])!, ...(step === undefined ? {} : { step }) };
    } else out[name] = values.split(',').map((v) => typed(v.trim(), kind));
  }
  if (Object.keys(out).length === 0) throw new CliUsageError('--param: no param given');
  return out;
}

function typed(text: string, kind: string): ParamValue {
  if (kind === 'string') return text;
  if (kind === 'boolean' || ((kind === 'undefined' || kind === 'object') && /^(true|false)$/.test(text)))
    return text === 'true';
  if (kind === 'number' || /^-?\d+(\.\d+)?$/.test(text)) {
    const value = Number(text);
    if (!Number.isFinite(value)) throw new CliUsageError(`--param: ${JSON.stringify(text)} is not a number`);
    return value;
  }
  return text;
}
