import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const recordCommand: CommandSpec = {
  name: 'record',
  summary: "records the venue's public market data, every frame as received, to replay later",
  usage: 'perpbot record [--config FILE] [--markets 1,2] [--out DIR] [--hours N]',
  description:
    'Connects read-only (no keys) to the configured venue, subscribes to the public channels (orderbook,\n' +
    'oracle, trades, funding) for the markets, and writes every frame exactly as received, with its receive\n' +
    'time, to gzip segments of JSON lines under --out (default recorder.dir, else recordings/ beside the\n' +
    'journal). Segments rotate per recorder.segment_mb and recorder.segment_minutes; the oldest are deleted to\n' +
    'stay within recorder.max_disk_mb. A dropped connection is reopened and the gap recorded. Stops after\n' +
    '--hours (default: until Ctrl-C), closing the last segment properly. With profile sim and no URLs it\n' +
    'records an embedded simulator.',
  flags: {
    ...CONFIG_FLAGS,
    markets: {
      type: 'string',
      value: '1,2',
      description: 'market ids (default: the markets of the configured strategies)',
    },
    out: { type: 'string', value: 'DIR', description: 'directory of the recording' },
    hours: { type: 'string', value: 'N', description: 'stop after N hours (a decimal, e.g. 0.5)' },
  },
  run: async (args, io) => (await import('./runRecord.js')).runRecord(args, io),
};
