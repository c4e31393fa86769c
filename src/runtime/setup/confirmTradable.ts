import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { exponentialBackoff, withRetry } from '../../core/withRetry.js';
import { NonceAllocator } from '../../engine/nonces/nonceAllocator.js';
import { parseNonceState } from '../../engine/nonces/noncePair.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { VenueError } from '../../venue/venueError.js';
import { SetupError } from './setupError.js';
import { sendCancelAll } from './sendCancelAll.js';
import type { RegistrationPolling } from './waitForRegistration.js';

export interface TradingProbe {
  /** A market to send the probe's cancel-all to (the account has no orders anywhere yet). */
  readonly marketId: number;
  readonly selectors: SelectorTable;
  readonly deadlineSeconds: number;
}

function notRegistered(error: unknown): boolean {
  return error instanceof VenueError && error.kind === 'AccountNotRegistered';
}

/**
 * The definitive end of the registration lag: the spec only promises that signed trading actions
 * fail with the not-registered error until the deposit is indexed, so a freshly funded account
 * sends one permit-signed cancel-all (a no-op on an account that has never placed an order) and
 * retries it on that error. Used only right after this run's own faucet deposit.
 */
export async function confirmTradable(options: {
  readonly rest: Pick<RestClient, 'nonceState' | 'cancelAll'>;
  readonly context: SigningContext;
  readonly account: Address;
  readonly signer: SignerLike;
  readonly probe: TradingProbe;
  readonly polling: RegistrationPolling;
  readonly clock: Clock;
  readonly signal?: AbortSignal;
  readonly onWaiting?: (info: { attempt: number; delayMs: number }) => void;
}): Promise<{ attempts: number }> {
  const { rest, account, clock, signal } = options;
  const allocator = new NonceAllocator(
    account,
    parseNonceState(await rest.nonceState(account, signal === undefined ? undefined : { signal })),
  );
  let attempts = 0;
  try {
    await withRetry(
      async () => {
        attempts += 1;
        return sendCancelAll({
          rest,
          context: options.context,
          allocator,
          account,
          signer: options.signer,
          marketId: options.probe.marketId,
          selectors: options.probe.selectors,
          clock,
          deadlineSeconds: options.probe.deadlineSeconds,
          ...(signal === undefined ? {} : { signal }),
        });
      },
      {
        attempts: options.polling.attempts,
        delayMs: exponentialBackoff({
          baseMs: options.polling.baseMs,
          maxMs: options.polling.maxDelayMs ?? 5_000,
          jitter: 0,
        }),
        shouldRetry: notRegistered,
        clock,
        ...(signal === undefined ? {} : { signal }),
        ...(options.onWaiting === undefined
          ? {}
          : { onRetry: ({ attempt, delayMs }) => options.onWaiting?.({ attempt, delayMs }) }),
      },
    );
    return { attempts };
  } catch (error) {
    if (!notRegistered(error)) throw error;
    throw new SetupError(
      'registration',
      `account ${account} still refuses signed actions as not registered after ${attempts} attempts`,
      {
        details: { account, attempts },
        hints: ['the faucet deposit may not be indexed yet; run setup again in a few seconds'],
        cause: error,
      },
    );
  }
}
