import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const killSwitchCommand: CommandSpec = {
  name: 'kill-switch',
  summary: "trip (cancel every order, open nothing) or reset the running bot's kill switch, over its control server",
  usage: 'perpbot kill-switch trip|reset [--config FILE] [--reason TEXT] [--url URL] [--json]',
  description:
    'Finds the bot that journals where the config says (its control server is recorded beside the journal),\n' +
    'or the one at --url, and posts the action with the control token from PERPBOT_CONTROL_TOKEN\n' +
    '(control.token_env, or control.token_file). A trip cancels every open order and puts the bot in mode\n' +
    'halted until a reset. The same as POST /api/kill-switch; the token never appears in the output.',
  flags: {
    ...CONFIG_FLAGS,
    reason: { type: 'string', value: 'TEXT', description: "why, for the bot's log, status and alerts" },
    url: {
      type: 'string',
      value: 'URL',
      description: "the bot's control server (default: the one recorded beside the config's journal)",
    },
    json: { type: 'boolean', description: "print the bot's JSON answer" },
  },
  positionals: ['action'],
  run: async (args, io) => (await import('./runKillSwitch.js')).runKillSwitch(args, io),
};
