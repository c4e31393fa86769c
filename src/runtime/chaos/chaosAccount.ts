import { generatePrivateKey } from 'viem/accounts';
import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { registerSecret } from '../../core/secretRegistry.js';
import { fastPrivateKeySigner } from '../../protocol/nativeSigner.js';
import { configuredMarkets, createCliRestClient, selectorsOf } from '../cli/cliContext.js';
import type { Config } from '../config/configSchema.js';
import { ACCOUNT_KEY_ENV, SIGNER_KEY_ENV } from '../keys/loadVenueKeys.js';
import type { Logger } from '../logging/createLogger.js';
import { setupAccount } from '../setup/setupAccount.js';

/** Throwaway keys of a chaos run: they live in this process's memory and the bot's environment only. */
export interface ChaosAccount {
  readonly account: Address;
  readonly signer: Address;
  /** PERPBOT_ACCOUNT_KEY and PERPBOT_SIGNER_KEY for the bot process. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Fresh keys, funded from the simulator's faucet and the signer registered by the same setup flow
 * `perpbot start` runs for its embedded simulator (it waits out the registration lag), before any
 * fault is switched on: the chaos is for the bot, not for the set-up.
 */
export async function createChaosAccount(
  config: Config,
  restUrl: string,
  clock: Clock,
  logger: Logger,
  signal: AbortSignal,
): Promise<ChaosAccount> {
  const accountKey = generatePrivateKey();
  const signerKey = generatePrivateKey();
  // Setup logs before the bot starts: the redactor must know them from here on.
  registerSecret(accountKey);
  registerSecret(signerKey);
  const account = fastPrivateKeySigner(accountKey);
  const signer = fastPrivateKeySigner(signerKey);
  const firstMarket = configuredMarkets(config)[0];
  await setupAccount({
    rest: createCliRestClient(config, restUrl, logger),
    account,
    signer,
    clock,
    log: logger.child({ component: 'setup' }),
    faucet: true,
    registration: {
      attempts: config.engine.registration_retry.attempts,
      baseMs: config.engine.registration_retry.base_ms,
    },
    ...(firstMarket === undefined
      ? {}
      : {
          tradingProbe: {
            marketId: firstMarket,
            selectors: selectorsOf(config),
            deadlineSeconds: config.auth.permit_deadline_seconds,
          },
        }),
    ...(config.auth.mode === 'jwt' ? { jwt: { budget: '100000', validForSeconds: 7 * 24 * 3600 } } : {}),
    signal,
  });
  return {
    account: account.address,
    signer: signer.address,
    env: { [ACCOUNT_KEY_ENV]: accountKey, [SIGNER_KEY_ENV]: signerKey },
  };
}
