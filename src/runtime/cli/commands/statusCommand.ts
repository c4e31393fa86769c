import { ACCOUNT_FLAG } from '../accountFlagSpec.js';
import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const statusCommand: CommandSpec = {
  name: 'status',
  summary: 'balance, positions and open orders: live from the running bot (control server), else from the venue',
  usage: 'perpbot status [--config FILE] [--json] [--market N] [--account ADDRESS]',
  flags: {
    ...CONFIG_FLAGS,
    json: { type: 'boolean', description: 'print JSON instead of tables' },
    market: {
      type: 'string',
      value: 'N',
      description: 'only this market (default: every market of the configured strategies)',
    },
    account: ACCOUNT_FLAG,
  },
  run: async (args, io) => (await import('./runStatus.js')).runStatus(args, io),
};
