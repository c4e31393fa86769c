import type { CommandSpec } from '../commandSpec.js';

export const newCommand: CommandSpec = {
  name: 'new',
  summary: 'write a new strategy (strategies/NAME.ts, commented) and its test (test/NAME.test.ts)',
  usage: 'perpbot new strategy NAME',
  description:
    'Writes strategies/NAME.ts, a small commented strategy that trades on the simulator with its default params,\n' +
    'and test/NAME.test.ts, its test in virtual time (perpbot/testing, run with vitest). Existing files are never\n' +
    'overwritten. Prints a config that runs it on the embedded simulator.',
  flags: {},
  positionals: ['strategy', 'NAME'],
  run: async (args, io) => (await import('./runNewStrategy.js')).runNewStrategy(args, io),
};
