import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const cancelAllCommand: CommandSpec = {
  name: 'cancel-all',
  summary: 'cancel every open order in each configured market (or one), signed with a permit',
  usage: 'perpbot cancel-all [--config FILE] [--market N] [--protection]',
  description: 'Sends even when engine.dry_run is set: it is the command for when something is wrong.',
  flags: {
    ...CONFIG_FLAGS,
    market: {
      type: 'string',
      value: 'N',
      description: 'only this market (default: every market of the configured strategies)',
    },
    protection: {
      type: 'boolean',
      description: "also cancel the venue's TP/SL orders (the protection that outlives the bot) in those markets",
    },
  },
  run: async (args, io) => (await import('./runCancelAll.js')).runCancelAll(args, io),
};
