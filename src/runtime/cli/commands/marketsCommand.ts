import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const marketsCommand: CommandSpec = {
  name: 'markets',
  summary: "the venue's markets: id, name, tick, step, min size, max leverage and mark, to pick strategies' markets",
  usage: 'perpbot markets [--config FILE] [--json]',
  description:
    "Reads GET /v1/markets of the configured venue (with profile sim and no URLs, an embedded simulator's) and\n" +
    'prints one row per market. The ids are what `strategies[].markets` takes; orders are snapped to tick and\n' +
    'step, and a size below min size is refused. Read-only, no key needed.',
  flags: {
    ...CONFIG_FLAGS,
    json: { type: 'boolean', description: 'print JSON instead of a table' },
  },
  run: async (args, io) => (await import('./runMarkets.js')).runMarkets(args, io),
};
