import type { Address } from '../core/address.js';
import { toDigestSigner, type SignerLike } from './digestSigner.js';
import { recoverAddress, toHex65, type Signature } from './signature.js';
import { typedDigest, type SigningContext } from './signingContext.js';
import type { StructMessages, StructName } from './typedStructs.js';

/**
 * Signing and recovery for the setup structs (RegisterSigner, VerifySigner, RevokeSigner, Login,
 * RegisterV2, PermitSingle): all sent as 65-byte 0x hex.
 */
export async function signTypedStruct<N extends StructName>(
  context: SigningContext,
  signer: SignerLike,
  name: N,
  message: StructMessages[N],
): Promise<`0x${string}`> {
  const signature = await toDigestSigner(signer).signDigest(typedDigest(context, name, message));
  return toHex65(signature);
}

/** The address that signed `message` as struct `name` under the context's domain. */
export function recoverTypedStructSigner<N extends StructName>(
  context: SigningContext,
  name: N,
  message: StructMessages[N],
  signature: Signature,
): Address {
  return recoverAddress(typedDigest(context, name, message), signature);
}
