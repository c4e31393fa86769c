import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const historyCommand: CommandSpec = {
  name: 'history',
  summary: 'recent orders and fills from the journal',
  usage: 'perpbot history [--config FILE] [--limit N] [--json] [--account ADDRESS]',
  flags: {
    ...CONFIG_FLAGS,
    limit: { type: 'string', value: 'N', description: 'how many orders and how many fills (default 20)' },
    json: { type: 'boolean', description: 'print JSON instead of tables' },
    account: {
      type: 'string',
      value: 'ADDRESS',
      description: 'only this account (default: every account in the journal)',
    },
  },
  run: async (args, io) => (await import('./runHistory.js')).runHistory(args, io),
};
