import { accountOf } from '../accountFlag.js';
import { readAccountStatus, unknownMarkets } from '../accountStatus.js';
import type { CliIo } from '../cliIo.js';
import { cliVenueWait, configuredMarkets, createCliLogger, createCliRestClient, loadCliConfig, remoteVenue } from '../cliContext.js';
import { formatStatusText } from '../formatStatus.js';
import { booleanFlag, integerFlag } from '../parseCommandArgs.js';
import type { ParsedArgs } from '../commandSpec.js';

/**
 * `perpbot status`: the account's balance, positions and open orders as a table or JSON. The reads
 * ride out a flaky venue until `venue.startup_deadline_ms`, logging each wait on stderr.
 */
export async function runStatus(args: ParsedArgs, io: CliIo): Promise<number> {
  const market = integerFlag(args, 'market', 1, 65_535);
  const config = await loadCliConfig(args, io);
  const venue = remoteVenue(config, 'status');
  const account = await accountOf(args.flags['account'], config, io);
  const markets = market === undefined ? configuredMarkets(config) : [market];
  const log = createCliLogger(config, io.stderr);
  const rest = createCliRestClient(config, venue.restUrl, log);
  const status = await cliVenueWait(config, io, log)('reading the account status', (signal) => readAccountStatus({ rest, account, markets, signal }));
  const missing = unknownMarkets(markets, status);
  if (booleanFlag(args, 'json')) io.stdout.write(`${JSON.stringify({ ...status, unknownMarkets: missing }, null, 2)}\n`);
  else {
    io.stdout.write(formatStatusText(status));
    if (missing.length > 0) io.stdout.write(`note: the venue lists no market ${missing.join(', ')}\n`);
  }
  return 0;
}
