import type { Address } from '../core/address.js';
import type { Hex32 } from './actionHashes.js';
import { WORD, writeAddressWord, writeBytes32Word } from './abiWords.js';
import { keccak256 } from './keccak.js';
import { typedDigest, type SigningContext } from './signingContext.js';
import { eip712Digest } from './structHash.js';
import { typeHash } from './typedStructs.js';

/** A permit's fields as the VerifyWitness struct signs them; `target` is the context's router. */
export interface VerifyWitnessFields {
  readonly account: Address;
  /** The action hash, as hex or as its 32 bytes (the order path has the bytes from hashing the action). */
  readonly actionHash: Hex32 | Uint8Array;
  readonly nonceAnchor: bigint;
  readonly nonceBitmap: number;
  /** uint32 unix seconds. */
  readonly deadline: number;
}

const MAX_ANCHOR = (1n << 48n) - 1n;
const MAX_BITMAP_INDEX = 207;
const MAX_UINT32 = 0xffff_ffff;

// The struct's seven words, written in place: typehash, account, target, hash, anchor, bitmap index,
// deadline. Only the low bytes a field can reach are ever written, so the rest stay zero.
const words = new Uint8Array(7 * WORD);
words.set(typeHash('VerifyWitness'), 0);
const view = new DataView(words.buffer);
const ACCOUNT = WORD;
const TARGET = 2 * WORD;
const HASH = 3 * WORD;
const ANCHOR_END = 5 * WORD;
const BITMAP_END = 6 * WORD;
const DEADLINE_END = 7 * WORD;

function inRange(f: VerifyWitnessFields): boolean {
  const { nonceAnchor: anchor, nonceBitmap: bit, deadline } = f;
  return (
    typeof anchor === 'bigint' &&
    anchor >= 0n &&
    anchor <= MAX_ANCHOR &&
    Number.isInteger(bit) &&
    bit >= 0 &&
    bit <= MAX_BITMAP_INDEX &&
    Number.isInteger(deadline) &&
    deadline >= 0 &&
    deadline <= MAX_UINT32
  );
}

/**
 * The permit digest, keccak(0x1901 ‖ separator ‖ hashStruct(VerifyWitness)), as `typedDigest`
 * computes it, for every order's way out: the words written with number arithmetic into one
 * buffer (no bigint per field, no hex round trip of an action hash given as bytes). A field out
 * of its range goes through `typedDigest`, which refuses it with the usual error; so do the
 * addresses and a hex hash, checked as `structHash` checks them. Bit-identical
 * (test/protocol/verifyWitnessDigest.test.ts compares the two on random permits).
 */
export function verifyWitnessDigest(context: SigningContext, f: VerifyWitnessFields): Uint8Array {
  if (!inRange(f)) return verifyWitnessDigestOfStruct(context, f);
  writeAddressWord(words, ACCOUNT, f.account, 'VerifyWitness.account');
  writeAddressWord(words, TARGET, context.router, 'VerifyWitness.target');
  writeBytes32Word(words, HASH, f.actionHash, 'VerifyWitness.hash');
  // uint48 = high 16 bits and low 32 bits, both exact as numbers.
  const anchor = Number(f.nonceAnchor);
  view.setUint16(ANCHOR_END - 6, Math.floor(anchor / 2 ** 32));
  view.setUint32(ANCHOR_END - 4, anchor % 2 ** 32);
  words[BITMAP_END - 1] = f.nonceBitmap;
  view.setUint32(DEADLINE_END - 4, f.deadline);
  return eip712Digest(context.separator, keccak256(words));
}

/** The same digest through the general struct hash (every field by name, bigint words): the reference. */
export function verifyWitnessDigestOfStruct(context: SigningContext, f: VerifyWitnessFields): Uint8Array {
  return typedDigest(context, 'VerifyWitness', {
    account: f.account,
    target: context.router,
    hash: f.actionHash,
    nonceAnchor: f.nonceAnchor,
    nonceBitmap: f.nonceBitmap,
    deadline: f.deadline,
  });
}
