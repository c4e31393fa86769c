import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { exponentialBackoff, withRetry } from '../../core/withRetry.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { VenueError } from '../../venue/venueError.js';
import { SetupError } from './setupError.js';

export interface RegistrationPolling {
  /** Reads of the balance before giving up (>= 1). */
  readonly attempts: number;
  /** First pause between reads; it doubles up to `maxDelayMs`. */
  readonly baseMs: number;
  readonly maxDelayMs?: number;
}

export interface RegistrationWait {
  /** Balance reads made, the successful one included. */
  readonly polls: number;
  readonly waitedMs: number;
  readonly balance: string;
}

/**
 * The venue's answer while the first deposit is not indexed yet: the account has no on-chain state
 * as far as the venue can see (venue-facts: 500 Internal for such an account), or the spec's
 * not-registered text.
 */
export function isNotRegisteredYet(error: unknown): boolean {
  return error instanceof VenueError && (error.kind === 'AccountNotRegistered' || error.kind === 'Internal');
}

/**
 * Rides out the registration lag (spec: "a few seconds after the deposit lands") by polling
 * GET /v1/account/cross-margin-balance, the cheapest read that needs the account to exist, until
 * it answers. Any other failure (an unreachable venue, a refused request) ends the wait at once.
 */
export async function waitForRegistration(options: {
  readonly rest: Pick<RestClient, 'crossMarginBalance'>;
  readonly account: Address;
  readonly clock: Clock;
  readonly polling: RegistrationPolling;
  readonly signal?: AbortSignal;
  readonly onWaiting?: (info: { attempt: number; delayMs: number }) => void;
}): Promise<RegistrationWait> {
  const { rest, account, clock, polling, signal } = options;
  const started = clock.now();
  let polls = 0;
  try {
    const answer = await withRetry(
      async () => {
        polls += 1;
        return rest.crossMarginBalance(account, signal === undefined ? undefined : { signal });
      },
      {
        attempts: polling.attempts,
        delayMs: exponentialBackoff({ baseMs: polling.baseMs, maxMs: polling.maxDelayMs ?? 5_000, jitter: 0 }),
        shouldRetry: isNotRegisteredYet,
        clock,
        ...(signal === undefined ? {} : { signal }),
        ...(options.onWaiting === undefined
          ? {}
          : { onRetry: ({ attempt, delayMs }) => options.onWaiting?.({ attempt, delayMs }) }),
      },
    );
    return { polls, waitedMs: clock.now() - started, balance: answer.balance };
  } catch (error) {
    if (!isNotRegisteredYet(error)) throw error;
    throw new SetupError(
      'registration',
      `account ${account} is still not registered after ${polls} balance reads over ${clock.now() - started} ms`,
      {
        details: { account, polls },
        hints: [
          'an account is registered by its first collateral deposit: on testnet run setup (it uses the faucet), on mainnet deposit collateral first',
          'if the deposit was just made, wait a few seconds and run setup again',
        ],
        cause: error,
      },
    );
  }
}
