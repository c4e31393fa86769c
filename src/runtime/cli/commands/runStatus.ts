import { isAbsolute, resolve } from 'node:path';
import { parseAddress, type Address } from '../../../core/address.js';
import type { Config } from '../../config/configSchema.js';
import { loadKey } from '../../keys/loadKey.js';
import { ACCOUNT_KEY_ENV } from '../../keys/loadVenueKeys.js';
import { readAccountStatus, unknownMarkets } from '../accountStatus.js';
import type { CliIo } from '../cliIo.js';
import { configuredMarkets, createCliRestClient, loadCliConfig, remoteVenue } from '../cliContext.js';
import { CliUsageError } from '../cliUsageError.js';
import { formatStatusText } from '../formatStatus.js';
import { booleanFlag, integerFlag } from '../parseCommandArgs.js';
import type { ParsedArgs } from '../commandSpec.js';

async function accountOf(flag: string | boolean | undefined, config: Config, io: CliIo): Promise<Address> {
  if (typeof flag === 'string') {
    try {
      return parseAddress(flag, '--account');
    } catch {
      throw new CliUsageError(`--account: invalid value ${JSON.stringify(flag)}; expected a 0x address`);
    }
  }
  const file = config.keys.account_key_file;
  const key = await loadKey({ envVar: ACCOUNT_KEY_ENV, file: file === undefined || isAbsolute(file) ? file : resolve(io.cwd, file), env: io.env });
  return key.address;
}

/** `perpbot status`: the account's balance, positions and open orders as a table or JSON. */
export async function runStatus(args: ParsedArgs, io: CliIo): Promise<number> {
  const market = integerFlag(args, 'market', 1, 65_535);
  const config = await loadCliConfig(args, io);
  const venue = remoteVenue(config, 'status');
  const account = await accountOf(args.flags['account'], config, io);
  const markets = market === undefined ? configuredMarkets(config) : [market];
  const status = await readAccountStatus({ rest: createCliRestClient(config, venue.restUrl), account, markets, signal: io.shutdown });
  const missing = unknownMarkets(markets, status);
  if (booleanFlag(args, 'json')) io.stdout.write(`${JSON.stringify({ ...status, unknownMarkets: missing }, null, 2)}\n`);
  else {
    io.stdout.write(formatStatusText(status));
    if (missing.length > 0) io.stdout.write(`note: the venue lists no market ${missing.join(', ')}\n`);
  }
  return 0;
}
