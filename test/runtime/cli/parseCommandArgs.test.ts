import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../src/runtime/cli/cliUsageError.js';
import { CONFIG_FLAGS, type CommandSpec } from '../../../src/runtime/cli/commandSpec.js';
import { booleanFlag, integerFlag, parseCommandArgs, stringFlag } from '../../../src/runtime/cli/parseCommandArgs.js';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'a command for tests',
  usage: 'perpbot demo <what> [--config FILE] [--json] [--market N]',
  flags: {
    ...CONFIG_FLAGS,
    json: { type: 'boolean', description: 'json' },
    market: { type: 'string', value: 'N', description: 'market' },
  },
  positionals: ['what'],
  run: async () => 0,
};

function usageError(argv: string[]): CliUsageError {
  try {
    parseCommandArgs(spec, argv);
  } catch (error) {
    if (error instanceof CliUsageError) return error;
    throw error;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

describe('parseCommandArgs', () => {
  it('reads long, short and inline flags and the positionals', () => {
    const args = parseCommandArgs(spec, ['new', '-c', 'a.yaml', '--json', '--market=2']);
    expect(args.positionals).toEqual(['new']);
    expect(stringFlag(args, 'config')).toBe('a.yaml');
    expect(booleanFlag(args, 'json')).toBe(true);
    expect(booleanFlag(args, 'i-understand-mainnet')).toBe(false);
    expect(integerFlag(args, 'market', 1, 65_535)).toBe(2);
  });

  it('names an unknown flag and suggests the closest one', () => {
    const error = usageError(['new', '--markt', '1']);
    expect(error.message).toBe('perpbot demo: unknown option --markt');
    expect(error.hints).toContain('did you mean --market?');
  });

  it('refuses a string flag without a value and a switch with one', () => {
    expect(usageError(['new', '--config']).message).toBe('perpbot demo: --config needs a value (--config FILE)');
    expect(usageError(['new', '--json=yes']).message).toBe('perpbot demo: --json takes no value');
  });

  it('checks the number of positionals, except when help is asked for', () => {
    expect(usageError([]).message).toBe('perpbot demo: missing what');
    expect(usageError(['a', 'b']).message).toBe('perpbot demo: unexpected argument "b"');
    expect(booleanFlag(parseCommandArgs(spec, ['--help']), 'help')).toBe(true);
    expect(booleanFlag(parseCommandArgs(spec, ['-h', 'x', 'y']), 'help')).toBe(true);
  });

  it('accepts whole numbers in range only', () => {
    for (const bad of ['0', '65536', '1.5', '-1', '0x10', 'one']) {
      expect(() => integerFlag(parseCommandArgs(spec, ['new', '--market', bad]), 'market', 1, 65_535)).toThrow(
        CliUsageError,
      );
    }
    expect(integerFlag(parseCommandArgs(spec, ['new']), 'market', 1, 65_535)).toBeUndefined();
  });
});
