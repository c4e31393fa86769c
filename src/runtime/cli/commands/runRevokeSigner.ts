import { resolve } from 'node:path';
import { revokeSigner } from '../../account/revokeSigner.js';
import {
  cliVenueWait,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  loadCliKeys,
  remoteVenue,
} from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** `perpbot revoke-signer`: revokes the configured signer and prints its final status. */
export async function runRevokeSigner(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = await loadCliConfig(args, io);
  const venue = remoteVenue(config, 'revoke-signer');
  const { account, signer } = await loadCliKeys(config, io);
  const log = createCliLogger(config, io.stdout);
  const result = await revokeSigner({
    rest: createCliRestClient(config, venue.restUrl, log),
    account,
    signer: signer.address,
    clock: io.clock,
    log,
    journalPath: resolve(io.cwd, config.journal.path),
    signal: io.shutdown,
    wait: cliVenueWait(config, io, log),
  });
  io.stdout.write(
    `signer ${result.signer} revoked (status ${result.status}${result.transactionHash === undefined ? ', already revoked' : `, tx ${result.transactionHash}`})\n`,
  );
  return 0;
}
