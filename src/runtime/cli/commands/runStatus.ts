import { accountOf } from '../accountFlag.js';
import { readAccountStatus, unknownMarkets } from '../accountStatus.js';
import type { CliIo } from '../cliIo.js';
import {
  cliVenueWait,
  configuredMarkets,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  remoteVenue,
} from '../cliContext.js';
import { formatStatusText } from '../formatStatus.js';
import { formatLiveStatus } from '../formatLiveStatus.js';
import { liveBotStatus } from '../../operations/control/liveBotStatus.js';
import { resolve } from 'node:path';
import { booleanFlag, integerFlag } from '../parseCommandArgs.js';
import type { ParsedArgs } from '../commandSpec.js';

/**
 * `perpbot status`: the account's balance, positions and open orders as a table or JSON. A bot
 * running with the same config (its control server recorded beside the journal) answers with
 * its live state; otherwise the venue is read, and the reads ride out a flaky venue until
 * `venue.startup_deadline_ms`, logging each wait on stderr.
 */
export async function runStatus(args: ParsedArgs, io: CliIo): Promise<number> {
  const market = integerFlag(args, 'market', 1, 65_535);
  const config = await loadCliConfig(args, io);
  if (args.flags['account'] === undefined) {
    const live = await liveBotStatus(resolve(io.cwd, config.journal.path));
    if (live?.kind === 'running') {
      const status =
        market === undefined
          ? live.status
          : {
              ...live.status,
              positions: live.status.positions.filter((p) => p.marketId === market),
              openOrders: live.status.openOrders.filter((o) => o.marketId === market),
            };
      io.stdout.write(
        booleanFlag(args, 'json')
          ? `${JSON.stringify({ source: 'bot', url: live.record.url, ...status }, null, 2)}
`
          : formatLiveStatus(live.record, status),
      );
      return 0;
    }
    if (live?.kind === 'silent')
      io.stderr.write(
        `note: the bot recorded at ${live.record.url} (pid ${live.record.pid}) does not answer (${live.reason}); reading the venue instead\n`,
      );
  }
  const venue = remoteVenue(config, 'status');
  const account = await accountOf(args.flags['account'], config, io);
  const markets = market === undefined ? configuredMarkets(config) : [market];
  const log = createCliLogger(config, io.stderr);
  const rest = createCliRestClient(config, venue.restUrl, log);
  const status = await cliVenueWait(
    config,
    io,
    log,
  )('reading the account status', (signal) => readAccountStatus({ rest, account, markets, signal }));
  const missing = unknownMarkets(markets, status);
  if (booleanFlag(args, 'json'))
    io.stdout.write(`${JSON.stringify({ ...status, unknownMarkets: missing }, null, 2)}\n`);
  else {
    io.stdout.write(formatStatusText(status));
    if (missing.length > 0) io.stdout.write(`note: the venue lists no market ${missing.join(', ')}\n`);
  }
  return 0;
}
