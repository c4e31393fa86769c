import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const startCommand: CommandSpec = {
  name: 'start',
  summary: 'run the configured strategies (default config: against an embedded simulator)',
  usage: 'perpbot start [--config FILE] [--dry-run] [--log-level LEVEL] [--control-port N] [--i-understand-mainnet]',
  description:
    'With profile sim and no venue URLs, a simulator starts in this process with throwaway in-memory keys,\n' +
    'funded by its faucet. Against testnet or mainnet run perpbot setup first. Ctrl-C (SIGINT) or SIGTERM\n' +
    'stops the strategies, handles open orders per shutdown.open_orders, and exits 0.',
  flags: {
    ...CONFIG_FLAGS,
    'dry-run': { type: 'boolean', description: 'build, sign and log every action but send none (engine.dry_run)' },
    'log-level': {
      type: 'string',
      value: 'LEVEL',
      description: 'fatal, error, warn, info, debug, trace or silent (overrides logging.level)',
    },
    'control-port': {
      type: 'string',
      value: 'N',
      description:
        'serve /health, /ready, /metrics, /api/status and the dashboard on 127.0.0.1:N (0 picks a free port; overrides control.port)',
    },
  },
  run: async (args, io) => (await import('./runStart.js')).runStart(args, io),
};
