import { isAbsolute, resolve } from 'node:path';
import { parseAddress, type Address } from '../../core/address.js';
import type { Config } from '../config/configSchema.js';
import { loadKey } from '../account/keys/loadKey.js';
import { ACCOUNT_KEY_ENV } from '../account/keys/loadVenueKeys.js';
import type { CliIo } from './cliIo.js';
import { CliUsageError } from './cliUsageError.js';

/**
 * The account a read-only command looks at: `--account` when given, else the address of the
 * configured account key (PERPBOT_ACCOUNT_KEY or keys.account_key_file), which is read only for it.
 */
export async function accountOf(flag: string | boolean | undefined, config: Config, io: CliIo): Promise<Address> {
  if (typeof flag === 'string') {
    try {
      return parseAddress(flag, '--account');
    } catch {
      throw new CliUsageError(`--account: invalid value ${JSON.stringify(flag)}; expected a 0x address`);
    }
  }
  const file = config.keys.account_key_file;
  const key = await loadKey({
    envVar: ACCOUNT_KEY_ENV,
    file: file === undefined || isAbsolute(file) ? file : resolve(io.cwd, file),
    env: io.env,
  });
  return key.address;
}
