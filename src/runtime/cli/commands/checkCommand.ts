import type { CommandSpec } from '../commandSpec.js';

export const checkCommand: CommandSpec = {
  name: 'check',
  summary: 'type-check a strategy module and validate it and its params',
  usage: 'perpbot check FILE [--params JSON] [--config FILE]',
  description:
    'Type-checks FILE with TypeScript (its tsconfig.json when there is one, strict settings otherwise), imports it,\n' +
    'checks it exports a strategy definition, and parses its params with its own schema: the --params JSON, each\n' +
    'entry of --config that names FILE, or {} (the defaults). Exits 0 when all pass, 1 with every problem otherwise.',
  flags: {
    params: { type: 'string', value: 'JSON', description: 'params to validate, as JSON (default {})' },
    config: {
      type: 'string',
      short: 'c',
      value: 'FILE',
      description: 'validate the params of every strategies: entry of this config that names FILE',
    },
  },
  positionals: ['FILE'],
  run: async (args, io) => (await import('./runCheckStrategy.js')).runCheckStrategy(args, io),
};
