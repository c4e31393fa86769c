import type { Address } from '../../core/address.js';
import { unixSeconds, type Clock } from '../../core/clock.js';
import { decimalToWei } from '../../core/decimal.js';
import { checkUint } from '../../core/integerRange.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { OneShotNonces, type NonceReservations } from '../nonces/oneShotNonces.js';

export interface OperatorApproval {
  readonly operator: Address;
  /** USD, as given. */
  readonly budget: string;
  readonly budgetWei: bigint;
  /** uint32 unix seconds. */
  readonly allowanceExpiry: number;
  readonly txHash: string;
}

/**
 * The operator-hub allowance JWT orders run against (spec "JWT path" step 6): PermitSingle signed
 * by the account key over a pair from the engine's nonces (a fresh read: anchor + 1, bit 0, above
 * any pair the journal reserved), sent to POST /v1/auth/approve-single with the venue-facts body.
 * The budget is USD × 10^18 as a uint96.
 */
export async function approveOperator(options: {
  readonly rest: Pick<RestClient, 'nonceState' | 'approveSingle'>;
  readonly context: SigningContext;
  readonly account: SignerLike & { readonly address: Address };
  readonly operator: Address;
  /** USD decimal string, e.g. "1000". */
  readonly budget: string;
  readonly validForSeconds: number;
  readonly clock: Clock;
  /** The bot's journal, when there is one: the pair is reserved there before it is signed. */
  readonly reservations?: NonceReservations | undefined;
  readonly signal?: AbortSignal;
}): Promise<OperatorApproval> {
  const { rest, context, account, operator, signal } = options;
  const budgetWei = checkUint(decimalToWei(options.budget, 'budget'), 96, 'budget (USD × 10^18)');
  const allowanceExpiry = Number(
    checkUint(unixSeconds(options.clock) + options.validForSeconds, 32, 'allowance_expiry'),
  );
  const nonces = await OneShotNonces.open({
    rest,
    account: account.address,
    signal,
    reservations: options.reservations,
  });
  const txHash = await nonces.use('setup:approve-single', async (nonce) => {
    const signature = await signTypedStruct(context, account, 'PermitSingle', {
      account: account.address,
      operator,
      budget: budgetWei,
      allowanceExpiry,
      nonceAnchor: nonce.anchor,
      nonceBitmap: nonce.bit,
    });
    const answer = await rest.approveSingle(
      {
        account: account.address,
        operator,
        budget: budgetWei.toString(),
        allowance_expiry: allowanceExpiry,
        nonce_anchor: nonce.anchor.toString(),
        nonce_bitmap_index: nonce.bit,
        signature,
      },
      signal === undefined ? undefined : { signal },
    );
    return answer.tx_hash;
  });
  return { operator, budget: options.budget, budgetWei, allowanceExpiry, txHash };
}
