import { SIM_FLAG_HELP, SIM_FLAG_NAMES } from '../../diagnostics/chaos/chaosFaults.js';
import { CONFIG_FLAGS, type CommandSpec, type FlagSpec } from '../commandSpec.js';

const SIM_FLAGS: Record<string, FlagSpec> = Object.fromEntries(
  SIM_FLAG_NAMES.map((name) => [name, { type: 'string', ...SIM_FLAG_HELP[name] }]),
);

export const chaosCommand: CommandSpec = {
  name: 'chaos',
  summary: 'the strategies under venue faults and a crash, then the journal audited against the venue',
  usage:
    'perpbot chaos [--config FILE] [--minutes N | --seconds N] [--json FILE] [--dir DIR] [--no-crash] [--max-reconnect-ms N] [fault flags as perpbot sim]',
  description:
    'Starts a simulator in this process with faults on (5 % REST 5xx, half after the action ran; 0-200 ms jitter;\n' +
    'every WebSocket dropped about every 20 s; stream stalls; the registration lag), funds throwaway keys, and runs\n' +
    '`perpbot start` against it in a child process: killed with SIGKILL half-way and started again, stopped with\n' +
    "SIGINT at the end. Then the simulator's own orders and fills are audited against the journal and the bot's log:\n" +
    'duplicate executions, fills missing or journaled twice, nonce errors reaching a strategy, signed requests refused\n' +
    'as malformed, unexpected exits, kill-switch trips, degraded periods, reconnect time, positions and balance.\n' +
    'At the end the faults stop and the bot gets up to a minute to trade again before it is stopped, so settled\n' +
    "states are compared. Prints one row per invariant and exits 1 when any fails. The config's venue is replaced\n" +
    'by the simulator and engine.dry_run is ignored; its strategies, risk, degraded and shutdown settings apply.',
  flags: {
    ...CONFIG_FLAGS,
    minutes: { type: 'string', value: 'N', description: 'how long the strategies run, fractions allowed (default 10)' },
    seconds: { type: 'string', value: 'N', description: 'the same in whole seconds' },
    json: { type: 'string', value: 'FILE', description: 'also write the report as JSON' },
    dir: {
      type: 'string',
      value: 'DIR',
      description: 'keep the journal, bot config and logs here (default: a temporary directory)',
    },
    'no-crash': { type: 'boolean', description: 'do not kill and restart the bot half-way' },
    'max-reconnect-ms': {
      type: 'string',
      value: 'N',
      description: 'the longest a reconnect may take, disconnect to trading again (default 2000)',
    },
    ...SIM_FLAGS,
  },
  run: async (args, io) => (await import('./runChaos.js')).runChaosCommand(args, io),
};
