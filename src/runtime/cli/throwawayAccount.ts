import { newPrivateKey } from '../../protocol/privateKeys.js';
import type { Clock } from '../../core/clock.js';
import { registerSecret } from '../../core/secretRegistry.js';
import { fastPrivateKeySigner } from '../../protocol/nativeSigner.js';
import type { Config } from '../config/configSchema.js';
import type { Logger } from '../operations/logging/createLogger.js';
import type { BotKeys } from '../bot/runBot.js';
import { setupAccount } from '../account/setupAccount.js';
import { configuredMarkets, createCliRestClient, selectorsOf } from './cliContext.js';

/** Keys made here: both private keys are known. */
type ThrowawayKeys = BotKeys & { readonly account: { readonly privateKey: `0x${string}` } };

/**
 * Fresh keys on a simulator, generated here and never written anywhere: the account is funded by
 * the faucet and the signer registered by the setup flow (which waits out the registration lag).
 * `perpbot start` on its embedded simulator and `perpbot chaos` both start from one.
 */
export async function throwawayAccount(
  config: Config,
  restUrl: string,
  options: { readonly clock: Clock; readonly logger: Logger; readonly signal: AbortSignal },
): Promise<ThrowawayKeys> {
  const accountKey = newPrivateKey();
  const account = fastPrivateKeySigner(accountKey);
  const signerKey = newPrivateKey();
  const signer = fastPrivateKeySigner(signerKey);
  // Setup logs before the bot registers them: the redactor must know them from here on.
  registerSecret(accountKey);
  registerSecret(signerKey);
  const firstMarket = configuredMarkets(config)[0];
  await setupAccount({
    rest: createCliRestClient(config, restUrl, options.logger),
    account,
    signer,
    clock: options.clock,
    log: options.logger.child({ component: 'setup' }),
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
    // JWT mode also needs the operator-hub allowance (approve-single) before trading.
    ...(config.auth.mode === 'jwt' ? { jwt: { budget: '100000', validForSeconds: 7 * 24 * 3600 } } : {}),
    signal: options.signal,
  });
  return {
    account: { address: account.address, privateKey: accountKey },
    signer: { address: signer.address, privateKey: signerKey },
  };
}
