import { resolve } from 'node:path';
import { cancelAllFailure, cancelAllMarkets } from '../cancelAllMarkets.js';
import {
  cliVenueWait,
  configuredMarkets,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  loadCliKeys,
  remoteVenue,
  selectorsOf,
} from '../cliContext.js';
import { integerFlag } from '../parseCommandArgs.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** `perpbot cancel-all`: loads config and keys, cancels per market, prints one line per market. */
export async function runCancelAll(args: ParsedArgs, io: CliIo): Promise<number> {
  const market = integerFlag(args, 'market', 1, 65_535);
  const config = await loadCliConfig(args, io);
  const venue = remoteVenue(config, 'cancel-all');
  const { account, signer } = await loadCliKeys(config, io);
  const log = createCliLogger(config, io.stderr);
  const outcomes = await cancelAllMarkets({
    rest: createCliRestClient(config, venue.restUrl, log),
    wait: cliVenueWait(config, io, log),
    account: account.address,
    signer,
    markets: market === undefined ? configuredMarkets(config) : [market],
    selectors: selectorsOf(config),
    clock: io.clock,
    deadlineSeconds: config.auth.permit_deadline_seconds,
    slots: { slot: config.engine.nonce_slot.k, slots: config.engine.nonce_slot.n },
    journalPath: resolve(io.cwd, config.journal.path),
    signal: io.shutdown,
  });
  for (const outcome of outcomes) {
    io.stdout.write(
      outcome.ok
        ? `market ${outcome.marketId}: cancel-all done (tx ${outcome.txHash ?? '-'})\n`
        : `market ${outcome.marketId}: cancel-all FAILED\n`,
    );
  }
  const failure = cancelAllFailure(outcomes);
  if (failure !== undefined) throw failure;
  return 0;
}
