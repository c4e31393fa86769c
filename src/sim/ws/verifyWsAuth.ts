import { parseAddress, sameAddress, type Address } from '../../core/address.js';
import { unixSeconds } from '../../core/clock.js';
import { checkUint } from '../../core/integerRange.js';
import { isPerpbotError } from '../../core/perpbotError.js';
import { parseHexSignature } from '../../protocol/signature.js';
import { recoverTypedStructSigner } from '../../protocol/typedSignatures.js';
import { normalizeLoginNonce } from '../../venue/schemas/restAuth.js';
import type { AuthV2Frame } from '../../venue/schemas/wsFramesClient.js';
import { authRefusal, type WsAuthRefusal } from './controlFrames.js';
import type { SimWsContext } from './simWsContext.js';

/** A refusal names its status: InvalidArgument for a malformed value, Unauthenticated otherwise. */
export type WsAuthOutcome = { readonly ok: true; readonly account: Address; readonly signer?: Address } | WsAuthRefusal;

/** Signer status 1 is Active (spec, session-key status). */
const ACTIVE = 1;

/**
 * The auth_v2 checks in the order the venue can afford them: shape, signature, then the
 * single-use nonce (consumed only by a frame whose signature is valid, so a forged frame cannot
 * burn a client's nonce), then the on-chain session key. Error texts never echo the signature.
 */
export function verifyAuthV2(
  ctx: Pick<SimWsContext, 'clock' | 'signingContext' | 'chain'>,
  params: AuthV2Frame['params'],
): WsAuthOutcome {
  let account: Address;
  let signer: Address;
  let nonce: bigint;
  try {
    account = parseAddress(params.account, 'account');
    signer = parseAddress(params.signer, 'signer');
    // The live venue issues and reads the nonce as bare hex (venue-wire.md §3 auth_v2); 0x is taken too.
    nonce = checkUint(BigInt(normalizeLoginNonce(params.nonce)), 256, 'nonce');
  } catch (error) {
    return authRefusal(
      'InvalidArgument',
      `invalid auth_v2 params: ${isPerpbotError(error) ? error.message : 'malformed'}`,
    );
  }
  if (params.expiration !== undefined && Number(params.expiration) <= unixSeconds(ctx.clock)) {
    return authRefusal('Unauthenticated', `auth_v2 expired: expiration ${params.expiration} is in the past`);
  }
  let recovered: Address;
  try {
    const signature = parseHexSignature(params.signature, 'signature');
    recovered = recoverTypedStructSigner(
      ctx.signingContext,
      'RegisterV2',
      { signer, message: params.message, nonce },
      signature,
    );
  } catch {
    return authRefusal('InvalidArgument', 'invalid signature: expected 0x hex of 65 bytes (r, s, v) over RegisterV2');
  }
  if (!sameAddress(recovered, signer)) {
    return authRefusal(
      'Unauthenticated',
      'invalid signature: RegisterV2 does not recover to signer (sign with the session key under the venue domain)',
    );
  }
  const consumed = ctx.chain.consumeLoginNonce(account, `0x${nonce.toString(16).padStart(64, '0')}`);
  if (!consumed.ok) {
    // The login nonce's own text (`Unauthenticated: nonce unknown or already used`), as REST login words it.
    return {
      ok: false,
      code: 'Unauthenticated',
      message: `${consumed.message} (fetch a fresh one from GET /v1/auth/nonce)`,
    };
  }
  const status = ctx.chain.signerStatus(account, signer);
  if (status !== ACTIVE) {
    return authRefusal('Unauthenticated', `signer not active for account (status ${status})`);
  }
  return { ok: true, account, signer };
}

export function verifyJwtAuth(ctx: Pick<SimWsContext, 'chain'>, token: string): WsAuthOutcome {
  const verified = ctx.chain.verifyJwt(token);
  // The chain's text is already `Unauthenticated: invalid token` / `Unauthenticated: token expired`.
  if (!verified.ok) return { ok: false, code: 'Unauthenticated', message: verified.message };
  return { ok: true, account: verified.value };
}
