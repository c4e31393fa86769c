import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const replayCommand: CommandSpec = {
  name: 'replay',
  summary: 'replays a recording through the real engine with the configured strategies, and reports',
  usage: 'perpbot replay REC [--config FILE] [--out DIR] [--latency-ms N] [--fee-bps MAKER,TAKER]',
  description:
    'Runs the configured strategies (loaded and checked as `perpbot start` loads them) through the real\n' +
    "engine against the simulator's matching engine, whose book, trades and mark come from the recording REC\n" +
    '(a directory written by `perpbot record`, or one segment of it), each frame at its recorded time on a\n' +
    'virtual clock, as fast as the CPU allows. Fills are conservative: a resting order fills only when a\n' +
    'recorded trade goes through its price, or trades at it after the displayed size ahead of it; a taker\n' +
    'walks the recorded book. Prints a summary and writes report.json (orders, fills, fees, PnL, drawdown,\n' +
    'and the equity, position, price and fill series) into --out (default: REC.replay beside the recording).\n' +
    'Fees and latency default to the config (replay.maker_fee_bps, replay.taker_fee_bps, replay.latency_ms).',
  positionals: ['rec'],
  flags: {
    ...CONFIG_FLAGS,
    out: { type: 'string', value: 'DIR', description: 'where report.json goes (default REC.replay)' },
    'latency-ms': { type: 'string', value: 'N', description: 'one-way latency of every request and frame, ms' },
    'fee-bps': { type: 'string', value: 'MAKER,TAKER', description: 'venue fees in whole basis points, e.g. 2,5' },
  },
  run: async (args, io) => (await import('./runReplay.js')).runReplay(args, io),
};
