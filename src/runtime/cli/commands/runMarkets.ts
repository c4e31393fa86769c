import type { RunningSim } from '../../../sim/startSim.js';
import { formatMarketTable, marketRows } from '../../bot/startup/marketTable.js';
import type { CliIo } from '../cliIo.js';
import {
  cliVenueWait,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  remoteVenue,
  usesEmbeddedSim,
} from '../cliContext.js';
import type { ParsedArgs } from '../commandSpec.js';
import { startEmbeddedSim } from '../embeddedSim.js';
import { booleanFlag } from '../parseCommandArgs.js';

/** `perpbot markets`: the venue's markets as a table (or JSON), read-only, riding out a flaky venue. */
export async function runMarkets(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = await loadCliConfig(args, io);
  const log = createCliLogger(config, io.stderr, config.logging.level === 'silent' ? 'silent' : 'warn');
  let sim: RunningSim | undefined;
  try {
    if (usesEmbeddedSim(config)) sim = await startEmbeddedSim(config, io.clock, log);
    const restUrl = sim?.restUrl ?? remoteVenue(config, 'markets').restUrl;
    const rest = createCliRestClient(config, restUrl, log);
    const { markets } = await cliVenueWait(
      config,
      io,
      log,
    )('reading the markets', (signal) => rest.markets({ signal }));
    const rows = marketRows(markets);
    io.stdout.write(booleanFlag(args, 'json') ? `${JSON.stringify(rows, null, 2)}\n` : formatMarketTable(rows));
    return 0;
  } finally {
    await sim?.close();
  }
}
