import type { Address } from '../core/address.js';
import { toDigestSigner, type SignerLike } from './digestSigner.js';
import { recoverAddress, toBase64Compact, toBase64Full, toHex65, type Signature } from './signature.js';
import { typedDigest, type SigningContext } from './signingContext.js';
import type { StructMessages, StructName } from './typedStructs.js';

/**
 * Signing and recovery for the setup structs (RegisterSigner, VerifySigner, RevokeSigner, Login,
 * RegisterV2, PermitSingle), all sent as 65-byte 0x hex, and the TP/SL structs.
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

/**
 * How a signature travels in a body: 65-byte 0x hex (setup), or base64 of the 65-byte or of the
 * 64-byte EIP-2098 compact form (permits, TP/SL orders).
 */
export type SignatureEncoding = 'hex65' | 'base64Full65' | 'base64Compact64';

/** `signTypedStruct` with the signature in the given encoding (the TP/SL bodies carry base64). */
export async function signTypedStructAs<N extends StructName>(
  context: SigningContext,
  signer: SignerLike,
  name: N,
  message: StructMessages[N],
  encoding: SignatureEncoding,
): Promise<string> {
  const signature = await toDigestSigner(signer).signDigest(typedDigest(context, name, message));
  if (encoding === 'hex65') return toHex65(signature);
  return encoding === 'base64Full65' ? toBase64Full(signature) : toBase64Compact(signature);
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
