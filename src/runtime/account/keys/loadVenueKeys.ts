import { sameAddress } from '../../../core/address.js';
import { KeyError } from './keyError.js';
import type { LoadedKey } from './loadedKey.js';
import { loadKey } from './loadKey.js';

export const ACCOUNT_KEY_ENV = 'PERPBOT_ACCOUNT_KEY';
export const SIGNER_KEY_ENV = 'PERPBOT_SIGNER_KEY';

export interface VenueKeys {
  /** The main wallet: holds collateral, signs only setup (register/revoke signer, login). */
  readonly account: LoadedKey;
  /** The session key registered against the account: signs every trading permit. */
  readonly signer: LoadedKey;
}

/**
 * Both keys a bot needs, from the config's `keys` section and the environment. The signer must be
 * a different key from the account: the point of a session key is that the wallet key stays cold.
 */
export async function loadVenueKeys(
  keys: { readonly account_key_file?: string | undefined; readonly signer_key_file?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): Promise<VenueKeys> {
  const account = await loadKey({ envVar: ACCOUNT_KEY_ENV, file: keys.account_key_file, env });
  const signer = await loadKey({ envVar: SIGNER_KEY_ENV, file: keys.signer_key_file, env });
  if (sameAddress(account.address, signer.address)) {
    throw new KeyError(
      signer.origin,
      `the signer key (${signer.origin}) is the account key (${account.origin}); both are ${account.address}`,
      ['generate a separate signer (session) key; the account key should only sign setup'],
      'KEY_SIGNER_IS_ACCOUNT',
    );
  }
  return { account, signer };
}
