import { parseArgs } from 'node:util';
import { closestName } from '../../core/closestName.js';
import { CliUsageError } from './cliUsageError.js';
import { COMMON_FLAGS, type CommandSpec, type FlagSpec, type ParsedArgs } from './commandSpec.js';

/**
 * Parses a command's arguments with node's `parseArgs` in token mode, so every mistake becomes a
 * one-line `CliUsageError` in our words (unknown flag with a suggestion, missing value, value on a
 * switch, wrong number of positionals) rather than node's multi-sentence TypeError.
 */
export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const all: Record<string, FlagSpec> = { ...COMMON_FLAGS, ...spec.flags };
  const options = Object.fromEntries(
    Object.entries(all).map(([name, flag]) => [
      name,
      flag.short === undefined ? { type: flag.type } : { type: flag.type, short: flag.short },
    ]),
  );
  const help = [`run perpbot ${spec.name} --help`];
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  } catch (error) {
    throw new CliUsageError(`perpbot ${spec.name}: ${error instanceof Error ? error.message : String(error)}`, help);
  }
  const flags: Record<string, string | boolean | undefined> = {};
  const repeated: Record<string, string[]> = {};
  const positionals: string[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    else if (token.kind === 'option') readOption(spec, all, token, flags, repeated);
  }
  if (flags['help'] === true) return { flags, positionals, repeated };
  const expected = spec.positionals ?? [];
  if (positionals.length > expected.length && spec.variadic !== true) {
    throw new CliUsageError(
      `perpbot ${spec.name}: unexpected argument ${JSON.stringify(positionals[expected.length])}`,
      [`usage: ${spec.usage}`],
    );
  }
  if (positionals.length < expected.length) {
    throw new CliUsageError(`perpbot ${spec.name}: missing ${expected.slice(positionals.length).join(' ')}`, [
      `usage: ${spec.usage}`,
    ]);
  }
  return { flags, positionals, repeated };
}

type OptionToken = { readonly name: string; readonly rawName: string; readonly value?: string | undefined };

/** One option's value into `flags` (or `repeated`, for a flag given more than once), or the mistake in our words. */
function readOption(
  spec: CommandSpec,
  all: Readonly<Record<string, FlagSpec>>,
  token: OptionToken,
  flags: Record<string, string | boolean | undefined>,
  repeated: Record<string, string[]>,
): void {
  const help = [`run perpbot ${spec.name} --help`];
  const flag = all[token.name];
  if (flag === undefined) {
    const suggestion = closestName(token.name, Object.keys(all));
    throw new CliUsageError(`perpbot ${spec.name}: unknown option ${token.rawName}`, [
      ...(suggestion === undefined ? [] : [`did you mean --${suggestion}?`]),
      ...help,
    ]);
  }
  if (flag.type === 'boolean') {
    if (token.value !== undefined)
      throw new CliUsageError(`perpbot ${spec.name}: ${token.rawName} takes no value`, help);
    flags[token.name] = true;
    return;
  }
  if (token.value === undefined || token.value === '')
    throw new CliUsageError(
      `perpbot ${spec.name}: ${token.rawName} needs a value (${token.rawName} ${flag.value ?? 'VALUE'})`,
      help,
    );
  if (flag.multiple === true) (repeated[token.name] ??= []).push(token.value);
  else flags[token.name] = token.value;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every value of a flag given more than once (`multiple`), in order; empty when absent. */
export function stringsFlag(args: ParsedArgs, name: string): readonly string[] {
  return args.repeated?.[name] ?? [];
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.flags[name] === true;
}

/** A whole number flag within [min, max]; `fallback` when absent. */
export function integerFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const text = stringFlag(args, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min || Number(text) > max) {
    throw new CliUsageError(
      `--${name}: invalid value ${JSON.stringify(text)}; expected a whole number from ${min} to ${max}`,
    );
  }
  return Number(text);
}
