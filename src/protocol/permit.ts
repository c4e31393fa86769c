import type { Address } from '../core/address.js';
import { checkRange, checkUint } from '../core/integerRange.js';
import { givesRs, toDigestSigner, type SignerLike } from './digestSigner.js';
import { base64CompactOfRs, base64FullOfRs, toBase64Compact, toBase64Full, type Signature } from './signature.js';
import type { SigningContext } from './signingContext.js';
import type { Hex32 } from './actionHashes.js';
import { verifyWitnessDigest } from './verifyWitnessDigest.js';

/**
 * The permit path (spec "Permit path"): the signer key signs VerifyWitness over an action hash,
 * with `target` = addresses.router and `account` = the main account (not the signer).
 */
export interface PermitRequest {
  readonly account: Address;
  /** As hex, or its 32 bytes (the engine has them from hashing the action). */
  readonly actionHash: Hex32 | Uint8Array;
  readonly nonceAnchor: bigint;
  readonly nonceBitmap: number;
  /** uint32 unix seconds. */
  readonly deadline: number;
}

/** The permit object as sent in `permit` / `permit_params` (spec "Permit object"). */
export interface PermitWire {
  readonly account: Address;
  readonly signer: Address;
  readonly nonce_anchor: string;
  readonly nonce_bitmap_index: number;
  readonly deadline: number;
  readonly signature: string;
}

export type PermitSignatureEncoding = 'compact64' | 'full65';

export const MAX_NONCE_ANCHOR = (1n << 48n) - 1n;
export const MAX_NONCE_BITMAP_INDEX = 207;

export function permitDigest(context: SigningContext, request: PermitRequest): Uint8Array {
  return verifyWitnessDigest(context, request);
}

/** Signs a permit and returns the wire object; the signature is base64 (64-byte compact by default). */
export async function signPermit(
  context: SigningContext,
  signer: SignerLike,
  request: PermitRequest,
  encoding: PermitSignatureEncoding = 'compact64',
): Promise<PermitWire> {
  return signPermitNow(context, signer, request, encoding);
}

/**
 * `signPermit`, answering synchronously when the signer does (the in-process key signers), so an
 * order's way to the socket has no microtask hop here; a promise with an asynchronous signer.
 * Throws (rather than rejects) on an out-of-range field.
 */
export function signPermitNow(
  context: SigningContext,
  signer: SignerLike,
  request: PermitRequest,
  encoding: PermitSignatureEncoding = 'compact64',
): PermitWire | Promise<PermitWire> {
  const anchor = checkUint(request.nonceAnchor, 48, 'nonce_anchor');
  const bit = Number(checkRange(request.nonceBitmap, 0n, BigInt(MAX_NONCE_BITMAP_INDEX), 'nonce_bitmap_index'));
  const deadline = Number(checkUint(request.deadline, 32, 'deadline'));
  const digestSigner = toDigestSigner(signer);
  const digest =
    digestSigner.ignoresDigest === true
      ? NO_DIGEST
      : verifyWitnessDigest(context, {
          account: request.account,
          actionHash: request.actionHash,
          nonceAnchor: anchor,
          nonceBitmap: bit,
          deadline,
        });
  if (givesRs(digestSigner)) {
    // The signature's bytes straight into its encoding: the same text as through `Signature`.
    const { rs, yParity } = digestSigner.signDigestRs(digest);
    const text = encoding === 'compact64' ? base64CompactOfRs(rs, yParity) : base64FullOfRs(rs, yParity);
    return encodedPermitWire(request.account, digestSigner.address, anchor, bit, deadline, text);
  }
  const signature = digestSigner.signDigest(digest);
  if (isThenable(signature))
    return Promise.resolve(signature).then((sig) =>
      permitWire(request.account, digestSigner.address, anchor, bit, deadline, sig, encoding),
    );
  return permitWire(request.account, digestSigner.address, anchor, bit, deadline, signature, encoding);
}

/** What a signer that ignores the digest is handed: two keccak digests and their ABI words saved per permit. */
const NO_DIGEST = new Uint8Array(32);

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

export function permitWire(
  account: Address,
  signer: Address,
  nonceAnchor: bigint,
  nonceBitmap: number,
  deadline: number,
  signature: Signature,
  encoding: PermitSignatureEncoding,
): PermitWire {
  return encodedPermitWire(account, signer, nonceAnchor, nonceBitmap, deadline, signatureText(signature, encoding));
}

function encodedPermitWire(
  account: Address,
  signer: Address,
  nonceAnchor: bigint,
  nonceBitmap: number,
  deadline: number,
  signature: string,
): PermitWire {
  return {
    account,
    signer,
    nonce_anchor: nonceAnchor.toString(),
    nonce_bitmap_index: nonceBitmap,
    deadline,
    signature,
  };
}

/**
 * `JSON.stringify` of a permit `encodedPermitWire` made, written for its keys in that function's
 * order (side by side, a property test holds the texts equal): an order's body is written with it
 * on the way to the socket. Strings through `JSON.stringify`, escaped as they would be.
 */
export function permitJson(
  p: Readonly<Record<'account' | 'signer' | 'nonce_anchor' | 'signature', string>> &
    Readonly<Record<'nonce_bitmap_index' | 'deadline', number>>,
): string {
  return (
    `{"account":${JSON.stringify(p.account)},"signer":${JSON.stringify(p.signer)}` +
    `,"nonce_anchor":${JSON.stringify(p.nonce_anchor)},"nonce_bitmap_index":${p.nonce_bitmap_index}` +
    `,"deadline":${p.deadline},"signature":${JSON.stringify(p.signature)}}`
  );
}

/** The last frozen signature encoded, and its text: a replay's placeholder signs every permit with the same one. */
let lastEncoded:
  { readonly signature: Signature; readonly encoding: PermitSignatureEncoding; readonly text: string } | undefined;

/** The signature's base64 text; a frozen signature's is remembered (it cannot change). */
function signatureText(signature: Signature, encoding: PermitSignatureEncoding): string {
  if (lastEncoded?.signature === signature && lastEncoded.encoding === encoding) return lastEncoded.text;
  const text = encoding === 'compact64' ? toBase64Compact(signature) : toBase64Full(signature);
  if (Object.isFrozen(signature)) lastEncoded = { signature, encoding, text };
  return text;
}
