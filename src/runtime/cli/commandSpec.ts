import type { CliIo } from './cliIo.js';

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Placeholder in help, e.g. FILE. */
  readonly value?: string;
  readonly description: string;
  /** A string flag that may be given more than once: its values in order (`--param a=1 --param b=2`). */
  readonly multiple?: boolean;
}

export type FlagValues = Readonly<Record<string, string | boolean | undefined>>;

export interface ParsedArgs {
  readonly flags: FlagValues;
  readonly positionals: readonly string[];
  /** The values of each `multiple` flag given, in order. */
  readonly repeated?: Readonly<Record<string, readonly string[]>>;
}

/**
 * One `perpbot <name>` command: its flags (for parsing and help) and a thin wrapper that turns the
 * parsed flags into a call of the command's core function.
 */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /** e.g. "perpbot status [--config FILE] [--json]" */
  readonly usage: string;
  readonly description?: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** Names of the positional arguments, all required (e.g. ["new"] for `keys new`). */
  readonly positionals?: readonly string[];
  /** The last positional may be given more than once (`perpbot sweep REC...`). */
  readonly variadic?: boolean;
  /** Hands the raw arguments on untouched (the simulator's own CLI parses them). */
  readonly passThrough?: boolean;
  run(args: ParsedArgs, io: CliIo, raw: readonly string[]): Promise<number>;
}

/** Flags every command takes. */
export const COMMON_FLAGS: Readonly<Record<string, FlagSpec>> = {
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  verbose: { type: 'boolean', description: 'on failure, print the stack trace and causes too' },
};

/** Flags of every command that reads a config file. */
export const CONFIG_FLAGS: Readonly<Record<string, FlagSpec>> = {
  config: { type: 'string', short: 'c', value: 'FILE', description: 'YAML config (default config/default.yaml)' },
  'i-understand-mainnet': { type: 'boolean', description: 'allow a config with profile mainnet (real funds)' },
};
