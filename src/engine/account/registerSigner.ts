import type { Address } from '../../core/address.js';
import { unixSeconds, type Clock } from '../../core/clock.js';
import { checkUint } from '../../core/integerRange.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { OneShotNonces, type NonceReservations } from '../nonces/oneShotNonces.js';

/** The free-text `message` of RegisterSigner; the venue only checks that sent equals signed. */
export const REGISTER_SIGNER_MESSAGE = 'perpbot session key';
export const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export interface SignerRegistration {
  /** '' when the venue found the signer already Active (idempotent success). */
  readonly transactionHash: string;
  readonly alreadyActive: boolean;
  readonly expiration: number;
  readonly nonce: { readonly anchor: bigint; readonly bit: number };
}

/**
 * RegisterSigner by the account key and VerifySigner by the signer key, over the same pair from
 * the engine's nonces (a fresh read: anchor + 1, bit 0, above any pair the journal reserved), sent
 * to POST /v1/auth/register-signer. An already Active signer comes back as success with an empty
 * transaction hash, which is treated as done.
 */
export async function registerSigner(options: {
  readonly rest: Pick<RestClient, 'nonceState' | 'registerSigner'>;
  readonly context: SigningContext;
  readonly account: SignerLike & { readonly address: Address };
  readonly signer: SignerLike & { readonly address: Address };
  readonly clock: Clock;
  readonly validForSeconds?: number;
  readonly message?: string;
  /** The bot's journal, when there is one: the pair is reserved there before it is signed. */
  readonly reservations?: NonceReservations | undefined;
  readonly signal?: AbortSignal;
}): Promise<SignerRegistration> {
  const { rest, context, account, signer, signal } = options;
  const message = options.message ?? REGISTER_SIGNER_MESSAGE;
  const expiration = Number(
    checkUint(unixSeconds(options.clock) + (options.validForSeconds ?? ONE_YEAR_SECONDS), 32, 'expiration'),
  );
  const nonces = await OneShotNonces.open({
    rest,
    account: account.address,
    signal,
    reservations: options.reservations,
  });
  return nonces.use('setup:register-signer', async (nonce) => {
    const accountSignature = await signTypedStruct(context, account, 'RegisterSigner', {
      account: account.address,
      signer: signer.address,
      message,
      expiration,
      nonceAnchor: nonce.anchor,
      nonceBitmap: nonce.bit,
    });
    const signerSignature = await signTypedStruct(context, signer, 'VerifySigner', {
      account: account.address,
      nonceAnchor: nonce.anchor,
      nonceBitmap: nonce.bit,
    });
    const answer = await rest.registerSigner(
      {
        account: account.address,
        signer: signer.address,
        message,
        expiration: String(expiration),
        nonce_anchor: nonce.anchor.toString(),
        nonce_bitmap_index: nonce.bit,
        account_signature: accountSignature,
        signer_signature: signerSignature,
      },
      signal === undefined ? undefined : { signal },
    );
    return {
      transactionHash: answer.transaction_hash,
      alreadyActive: answer.transaction_hash === '',
      expiration,
      nonce,
    };
  });
}
