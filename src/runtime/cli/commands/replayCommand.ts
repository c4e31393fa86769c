import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';
import { booleanFlag } from '../parseCommandArgs.js';
import { CliUsageError } from '../cliUsageError.js';

export const replayCommand: CommandSpec = {
  name: 'replay',
  summary: "replays a recording through the configured strategies and the real engine (--verify: a bot's flight)",
  usage: 'perpbot replay REC --verify [--config FILE]',
  description:
    'With --verify, REC is a flight recording (recorder.enabled on `perpbot start`; flight/ beside the journal):\n' +
    'the last run in it is re-driven through the strategies of --config and the real engine on virtual time, the\n' +
    'recorded frames, REST answers and start of the strategies each at its recorded time. The strategies must\n' +
    'submit the recorded intents in the recorded order (compared by side, size, price, market, type and flags).\n' +
    'Prints "0 divergences" and exits 0, or the first differing intent (recorded and now) with the frames\n' +
    'before it and exits 1.',
  flags: {
    ...CONFIG_FLAGS,
    verify: { type: 'boolean', description: 'REC is a flight recording: check the strategies make the same decisions' },
  },
  positionals: ['REC'],
  run: async (args, io) => {
    if (booleanFlag(args, 'verify')) return (await import('./runVerifyFlight.js')).runVerifyFlight(args, io);
    throw new CliUsageError('perpbot replay: only --verify (a flight recording) is in this build', [
      'perpbot replay FLIGHT --verify --config FILE',
    ]);
  },
};
