import type { Address } from '../../../core/address.js';
import type { Clock } from '../../../core/clock.js';
import type { Config } from '../../config/configSchema.js';
import { ACCOUNT_KEY_ENV, SIGNER_KEY_ENV } from '../../account/keys/loadVenueKeys.js';
import type { Logger } from '../../operations/logging/createLogger.js';

/** Throwaway keys of a chaos run: they live in this process's memory and the bot's environment only. */
export interface ChaosAccount {
  readonly account: Address;
  readonly signer: Address;
  /** PERPBOT_ACCOUNT_KEY and PERPBOT_SIGNER_KEY for the bot process. */
  readonly env: Readonly<Record<string, string>>;
}

/** Makes fresh keys for an account on the simulator at `restUrl`, funded and with its signer registered. */
export type ThrowawayKeysMaker = (
  config: Config,
  restUrl: string,
  options: { readonly clock: Clock; readonly logger: Logger; readonly signal: AbortSignal },
) => Promise<{
  readonly account: { readonly address: Address; readonly privateKey: `0x${string}` };
  readonly signer: { readonly address: Address; readonly privateKey: `0x${string}` };
}>;

/** A throwaway account set up before any fault is switched on: the chaos is for the bot, not for the set-up. */
export async function createChaosAccount(
  config: Config,
  restUrl: string,
  clock: Clock,
  logger: Logger,
  signal: AbortSignal,
  makeKeys: ThrowawayKeysMaker,
): Promise<ChaosAccount> {
  const keys = await makeKeys(config, restUrl, { clock, logger, signal });
  return {
    account: keys.account.address,
    signer: keys.signer.address,
    env: { [ACCOUNT_KEY_ENV]: keys.account.privateKey, [SIGNER_KEY_ENV]: keys.signer.privateKey },
  };
}
