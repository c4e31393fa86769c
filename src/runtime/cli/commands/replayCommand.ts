import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';
import { booleanFlag } from '../parseCommandArgs.js';

export const replayCommand: CommandSpec = {
  name: 'replay',
  summary: "replays a recording through the real engine with the configured strategies (--verify: a bot's flight)",
  usage:
    'perpbot replay REC [--config FILE] [--out DIR] [--latency-ms N] [--fee-bps MAKER,TAKER] [--allow-bad-frames]\n' +
    '       perpbot replay FLIGHT --verify [--config FILE]',
  description:
    'Runs the configured strategies (loaded and checked as `perpbot start` loads them) through the real\n' +
    "engine against the simulator's matching engine, whose book, trades and mark come from the recording REC\n" +
    '(a directory written by `perpbot record`, or one segment of it), each frame at its recorded time on a\n' +
    'virtual clock, as fast as the CPU allows. Fills are conservative: a resting order fills only when a\n' +
    'recorded trade goes through its price, or trades at it after the displayed size ahead of it; a taker\n' +
    'walks the recorded book. Prints a summary and writes report.json (orders, fills, fees, PnL, drawdown,\n' +
    'and the equity, position, price and fill series) and report.html (the same, with plots) into --out\n' +
    '(default: REC.replay beside the recording). Fees and latency default to the config (replay.maker_fee_bps,\n' +
    'replay.taker_fee_bps, replay.latency_ms). Frames the decoders refuse (a NaN or negative price) or of\n' +
    "markets the recording's header does not list are counted and make the exit 1 (--allow-bad-frames: 0).\n" +
    '\n' +
    'With --verify, FLIGHT is a flight recording (recorder.enabled on `perpbot start`; flight/ beside the journal):\n' +
    'the last run in it is re-driven through the strategies of --config and the real engine on virtual time, the\n' +
    'recorded frames, REST answers and start of the strategies each at its recorded time. The strategies must\n' +
    'submit the recorded intents in the recorded order (compared by side, size, price, market, type and flags).\n' +
    'Prints "0 divergences" and exits 0, or the first differing intent (recorded and now) with the frames\n' +
    'before it and exits 1.',
  positionals: ['rec'],
  flags: {
    ...CONFIG_FLAGS,
    out: { type: 'string', value: 'DIR', description: 'where report.json and report.html go (default REC.replay)' },
    'latency-ms': { type: 'string', value: 'N', description: 'one-way latency of every request and frame, ms' },
    'fee-bps': { type: 'string', value: 'MAKER,TAKER', description: 'venue fees in whole basis points, e.g. 2,5' },
    verify: { type: 'boolean', description: 'REC is a flight recording: check the strategies make the same decisions' },
    'allow-bad-frames': {
      type: 'boolean',
      description: 'exit 0 though the recording held frames the decoders refused or of unlisted markets',
    },
  },
  run: async (args, io) =>
    booleanFlag(args, 'verify')
      ? (await import('./runVerifyFlight.js')).runVerifyFlight(args, io)
      : (await import('./runReplay.js')).runReplay(args, io),
};
