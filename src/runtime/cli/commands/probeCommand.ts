import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const probeCommand: CommandSpec = {
  name: 'probe',
  summary: "run this first on a new venue: every read and channel decoded with the bot's own decoders, one row each",
  usage: 'perpbot probe [--config FILE] [--seconds N] [--json FILE]',
  description:
    'Reads every public REST endpoint and, with the configured keys, every private read; subscribes to every\n' +
    'public channel and, with the session key, the private ones after auth_v2; listens for --seconds and decodes\n' +
    "every body and frame with the bot's own decoders, checking the order book's checksum on every update.\n" +
    'Prints one row per endpoint and channel: ok, or the departure (field, expected, received) with a redacted\n' +
    'sample saved under <journal dir>/wire-samples/. A channel that is acked but silent is ok. Exits 0 when every\n' +
    'row is ok (or skipped for want of keys), 1 otherwise. Read-only: it signs only the auth_v2 login message,\n' +
    'nothing that moves money. With profile sim and no URLs it probes an embedded simulator with throwaway keys.',
  flags: {
    ...CONFIG_FLAGS,
    seconds: { type: 'string', value: 'N', description: 'how long to listen to the channels (default 10)' },
    json: { type: 'string', value: 'FILE', description: 'also write the rows as JSON' },
  },
  run: async (args, io) => (await import('./runProbe.js')).runProbe(args, io),
};
