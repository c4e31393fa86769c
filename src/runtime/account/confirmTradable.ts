import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { exponentialBackoff, withRetry, type RetryOptions } from '../../core/withRetry.js';
import { OneShotNonces, type NonceReservations } from '../../engine/nonces/oneShotNonces.js';
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

interface ConfirmTradableOptions {
  readonly rest: Pick<RestClient, 'nonceState' | 'cancelAll'>;
  readonly context: SigningContext;
  readonly account: Address;
  readonly signer: SignerLike;
  readonly probe: TradingProbe;
  readonly polling: RegistrationPolling;
  readonly clock: Clock;
  readonly reservations?: NonceReservations | undefined;
  readonly signal?: AbortSignal;
  readonly onWaiting?: (info: { attempt: number; delayMs: number }) => void;
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
export async function confirmTradable(options: ConfirmTradableOptions): Promise<{ attempts: number }> {
  const { rest, account, signal } = options;
  const nonces = await OneShotNonces.open({ rest, account, signal, reservations: options.reservations });
  let attempts = 0;
  try {
    await withRetry((attempt) => {
      attempts = attempt;
      return sendProbe(options, nonces);
    }, probeRetries(options));
    return { attempts };
  } catch (error) {
    throw notRegistered(error) ? stillNotRegistered(account, attempts, error) : error;
  }
}

/** One no-op cancel-all, signed by the session key with the probe's nonces. */
function sendProbe(options: ConfirmTradableOptions, nonces: OneShotNonces): ReturnType<typeof sendCancelAll> {
  const { signal } = options;
  return sendCancelAll({
    rest: options.rest,
    context: options.context,
    nonces,
    account: options.account,
    signer: options.signer,
    marketId: options.probe.marketId,
    selectors: options.probe.selectors,
    clock: options.clock,
    deadlineSeconds: options.probe.deadlineSeconds,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Retried only on the not-registered refusal, with the registration polling's backoff. */
function probeRetries(options: ConfirmTradableOptions): RetryOptions {
  const { polling, signal, onWaiting } = options;
  return {
    attempts: polling.attempts,
    delayMs: exponentialBackoff({ baseMs: polling.baseMs, maxMs: polling.maxDelayMs ?? 5_000, jitter: 0 }),
    shouldRetry: notRegistered,
    clock: options.clock,
    ...(signal === undefined ? {} : { signal }),
    ...(onWaiting === undefined ? {} : { onRetry: ({ attempt, delayMs }) => onWaiting({ attempt, delayMs }) }),
  };
}

function stillNotRegistered(account: Address, attempts: number, cause: unknown): SetupError {
  return new SetupError(
    'registration',
    `account ${account} still refuses signed actions as not registered after ${attempts} attempts`,
    {
      details: { account, attempts },
      hints: ['the faucet deposit may not be indexed yet; run setup again in a few seconds'],
      cause,
    },
  );
}
