import type { Address } from '../../core/address.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { VenueError } from '../../venue/venueError.js';

/** The spec's faucet amount: a non-bot wallet receives exactly 1000 USDC, once. */
export const FAUCET_AMOUNT = '1000';

export type FaucetOutcome = 'deposited' | 'already-used';

// The spec does not show the faucet's refusal text; these cover the wordings seen and likely
// ("faucet already used", "already claimed", "only once per wallet").
const ALREADY_USED =
  /already (?:been )?(?:used|claimed|received|funded|deposited|requested)|only once|once per (?:wallet|account|address)/i;

/** True for the faucet's "this wallet was already paid" refusal: the deposit it asks for exists. */
export function isFaucetAlreadyUsed(error: unknown): boolean {
  return (
    error instanceof VenueError && error.httpStatus >= 400 && error.httpStatus < 500 && ALREADY_USED.test(error.reason)
  );
}

/**
 * Testnet funding: POST /v1/account/deposit for the spec's 1000 USDC. A wallet the faucet already
 * paid is fine (a re-run of setup); any other refusal is the caller's to report.
 */
export async function faucetDeposit(
  rest: Pick<RestClient, 'deposit'>,
  account: Address,
  signal?: AbortSignal,
): Promise<FaucetOutcome> {
  try {
    await rest.deposit({ account, amount: FAUCET_AMOUNT }, signal === undefined ? undefined : { signal });
    return 'deposited';
  } catch (error) {
    if (isFaucetAlreadyUsed(error)) return 'already-used';
    throw error;
  }
}
