import type { Address } from '../core/address.js';
import { checkRange, checkUint } from '../core/integerRange.js';
import { toDigestSigner, type SignerLike } from './digestSigner.js';
import { toBase64Compact, toBase64Full, type Signature } from './signature.js';
import { typedDigest, type SigningContext } from './signingContext.js';
import { WORD, writeAddressWord, writeBytes32Word } from './abiWords.js';
import { keccak256 } from './keccak.js';
import { eip712Digest } from './structHash.js';
import { typeHash } from './typedStructs.js';
import type { Hex32 } from './actionHashes.js';

/**
 * The permit path (spec "Permit path"): the signer key signs VerifyWitness over an action hash,
 * with `target` = addresses.router and `account` = the main account (not the signer).
 */
export interface PermitRequest {
  readonly account: Address;
  /** As hex, or as its 32 bytes (a verifier that has just computed it). */
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

/**
 * The VerifyWitness digest a permit signs. Every signed request and every permit the simulator
 * checks hashes one, so the struct's words are written here directly when the nonce and deadline
 * are plainly in range (the general struct hash looks each field up by name and takes every
 * integer through bigint); anything else goes to `typedDigest`, which refuses it in its words.
 * Bit-identical (test/protocol/permitDigest.test.ts holds both on random permits).
 */
export function permitDigest(context: SigningContext, request: PermitRequest): Uint8Array {
  const { nonceAnchor, nonceBitmap, deadline } = request;
  if (!plainNonceAndDeadline(nonceAnchor, nonceBitmap, deadline)) return genericPermitDigest(context, request);
  const buf = new Uint8Array(7 * WORD);
  buf.set(VERIFY_WITNESS_TYPEHASH, 0);
  // The labels are the general path's: a bad address or hash is refused in the same words.
  writeAddressWord(buf, WORD, request.account, 'VerifyWitness.account');
  writeAddressWord(buf, 2 * WORD, context.router, 'VerifyWitness.target');
  writeBytes32Word(buf, 3 * WORD, request.actionHash, 'VerifyWitness.hash');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  // uint48 anchor: the high 16 bits, then the low 32.
  const anchor = Number(nonceAnchor);
  view.setUint16(5 * WORD - 6, Math.floor(anchor / TWO_32));
  view.setUint32(5 * WORD - 4, anchor % TWO_32);
  buf[6 * WORD - 1] = nonceBitmap;
  view.setUint32(7 * WORD - 4, deadline);
  return eip712Digest(context.separator, keccak256(buf));
}

const VERIFY_WITNESS_TYPEHASH = typeHash('VerifyWitness');
const TWO_32 = 2 ** 32;

function plainNonceAndDeadline(anchor: unknown, bit: unknown, deadline: unknown): boolean {
  return (
    typeof anchor === 'bigint' &&
    anchor >= 0n &&
    anchor <= MAX_NONCE_ANCHOR &&
    typeof bit === 'number' &&
    Number.isInteger(bit) &&
    bit >= 0 &&
    bit <= MAX_NONCE_BITMAP_INDEX &&
    typeof deadline === 'number' &&
    Number.isInteger(deadline) &&
    deadline >= 0 &&
    deadline < TWO_32
  );
}

/** The digest through the general struct hash: the reference the direct path is held to. */
export function genericPermitDigest(context: SigningContext, request: PermitRequest): Uint8Array {
  return typedDigest(context, 'VerifyWitness', {
    account: request.account,
    target: context.router,
    hash: request.actionHash,
    nonceAnchor: request.nonceAnchor,
    nonceBitmap: request.nonceBitmap,
    deadline: request.deadline,
  });
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
  const digest = permitDigest(context, request);
  const signature = digestSigner.signDigest(digest);
  if (isThenable(signature))
    return Promise.resolve(signature).then((sig) =>
      permitWire(request.account, digestSigner.address, anchor, bit, deadline, sig, encoding),
    );
  return permitWire(request.account, digestSigner.address, anchor, bit, deadline, signature, encoding);
}

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
  return {
    account,
    signer,
    nonce_anchor: nonceAnchor.toString(),
    nonce_bitmap_index: nonceBitmap,
    deadline,
    signature: encoding === 'compact64' ? toBase64Compact(signature) : toBase64Full(signature),
  };
}
