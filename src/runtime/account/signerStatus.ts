import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { withRetry } from '../../core/withRetry.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { SESSION_KEY_ACTIVE, SESSION_KEY_REVOKED, type SessionKeyStatus } from '../../venue/schemas/restAuth.js';
import { PerpbotError } from '../../core/perpbotError.js';
import { SetupError } from './setupError.js';

export { SESSION_KEY_ACTIVE, SESSION_KEY_REVOKED };

type StatusRest = Pick<RestClient, 'sessionKeyStatus'>;

export async function readSignerStatus(
  rest: StatusRest,
  account: Address,
  signer: Address,
  signal?: AbortSignal,
): Promise<SessionKeyStatus> {
  return rest.sessionKeyStatus({ account, signer }, signal === undefined ? undefined : { signal });
}

/** The status read does not show the expected value yet: retried, never shown to the user. */
class StatusNotYet extends PerpbotError {
  constructor(readonly seen: SessionKeyStatus) {
    super(`status ${seen.status}`, { code: 'SETUP_STATUS_NOT_YET' });
  }
}

/**
 * Reads GET /v1/auth/session-key-status until it shows `expected` (1 Active, 3 Revoked). The
 * setup transaction is mined before the venue answers, but the status read may be served by an
 * indexer a block behind, so a few reads are allowed.
 */
export async function confirmSignerStatus(options: {
  readonly rest: StatusRest;
  readonly account: Address;
  readonly signer: Address;
  readonly expected: number;
  readonly clock: Clock;
  readonly attempts?: number;
  readonly delayMs?: number;
  readonly signal?: AbortSignal;
}): Promise<SessionKeyStatus> {
  const { rest, account, signer, expected, signal } = options;
  try {
    return await withRetry(
      async () => {
        const status = await readSignerStatus(rest, account, signer, signal);
        if (status.status !== expected) throw new StatusNotYet(status);
        return status;
      },
      {
        attempts: options.attempts ?? 10,
        delayMs: () => options.delayMs ?? 300,
        shouldRetry: (error) => error instanceof StatusNotYet,
        clock: options.clock,
        ...(signal === undefined ? {} : { signal }),
      },
    );
  } catch (error) {
    if (!(error instanceof StatusNotYet)) throw error;
    throw new SetupError(
      'confirmStatus',
      `signer ${signer} of account ${account} has status ${error.seen.status} (${error.seen.status_description}), expected ${expected}`,
      {
        details: { account, signer, status: error.seen.status, expected },
        hints: [
          'check GET /v1/auth/session-key-status again in a few seconds; if it does not change, run the command again',
        ],
      },
    );
  }
}
