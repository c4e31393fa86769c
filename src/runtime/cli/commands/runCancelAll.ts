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
import { booleanFlag, integerFlag } from '../parseCommandArgs.js';
import { cancelAllTpsl } from '../../protection/cancelAllTpsl.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** `perpbot cancel-all`: loads config and keys, cancels per market, prints one line per market. */
export async function runCancelAll(args: ParsedArgs, io: CliIo): Promise<number> {
  const market = integerFlag(args, 'market', 1, 65_535);
  const config = await loadCliConfig(args, io);
  const venue = remoteVenue(config, 'cancel-all');
  const { account, signer } = await loadCliKeys(config, io);
  const log = createCliLogger(config, io.stderr);
  const rest = createCliRestClient(config, venue.restUrl, log);
  const markets = market === undefined ? configuredMarkets(config) : [market];
  const outcomes = await cancelAllMarkets({
    rest,
    wait: cliVenueWait(config, io, log),
    account: account.address,
    signer,
    markets,
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
  if (!booleanFlag(args, 'protection')) return 0;
  const tpsl = await cancelAllTpsl({ rest, account: account.address, signer, markets, clock: io.clock });
  for (const t of tpsl) {
    const count = t.cancelled === undefined ? '' : ` (${t.cancelled} cancelled)`;
    io.stdout.write(
      t.ok
        ? `market ${t.marketId}: TP/SL cancel-all done${count}\n`
        : `market ${t.marketId}: TP/SL cancel-all FAILED: ${t.error instanceof Error ? t.error.message : 'refused'}\n`,
    );
  }
  return tpsl.every((t) => t.ok) ? 0 : 1;
}
