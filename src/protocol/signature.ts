import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak256 } from './keccak.js';
import type { Address } from 'viem';
import { checksumAddress } from '../core/checksumAddress.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { toHex } from './abiWords.js';
import { nativeRecoverPublicKey } from './nativeSecp256k1.js';

/**
 * A secp256k1 signature as the venue's encodings need it, and the three wire encodings (spec
 * "Signature encodings"): 65-byte 0x hex (setup, login, WebSocket auth), base64 of the 64-byte
 * EIP-2098 compact form, and base64 of the 65-byte form (permits).
 */
export interface Signature {
  readonly r: bigint;
  readonly s: bigint;
  readonly yParity: 0 | 1;
}

const N = secp256k1.CURVE.n;
const TOP_BIT = 1n << 255n;

function checkScalar(value: bigint, field: string): void {
  if (value <= 0n || value >= N)
    throw new InvalidValueError(field, `0x${value.toString(16)}`, 'a scalar in 1 .. n-1 of secp256k1');
}

function bigintTo32(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));
}

function bytesToBigint(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex') || '0'}`);
}

/** The big-endian 32-byte word at `offset` as a bigint, four 64-bit reads (no hex text). */
function wordToBigint(bytes: Uint8Array, offset: number): bigint {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + offset, WORD_BYTES);
  return (
    (view.readBigUInt64BE(0) << 192n) |
    (view.readBigUInt64BE(8) << 128n) |
    (view.readBigUInt64BE(16) << 64n) |
    view.readBigUInt64BE(24)
  );
}

const WORD_BYTES = 32;

/**
 * The last signature made from a signer's bytes (`signatureOfRs`) and those 64 bytes r ‖ s: its
 * encodings copy the bytes instead of writing the two scalars back out (a permit is encoded right
 * after it is signed, on every order's way out). One slot, not a WeakMap: an entry per signature
 * cost more than it saved, and any other signature simply takes the general path.
 */
let lastFromRs: Signature | undefined;
let lastRs: Uint8Array | undefined;

function rsBytesOf(sig: Signature): Uint8Array | undefined {
  return sig === lastFromRs ? lastRs : undefined;
}

/**
 * A signature from a signer's 64 bytes r ‖ s (libsecp256k1's compact output) and recovery bit:
 * frozen, and its encodings reuse the bytes. The bytes are the signature's from here on: the
 * caller hands over a fresh array and never changes it.
 */
export function signatureOfRs(rs: Uint8Array, yParity: 0 | 1): Signature {
  checkedRs(rs);
  const sig: Signature = Object.freeze({ r: wordToBigint(rs, 0), s: wordToBigint(rs, WORD_BYTES), yParity });
  lastFromRs = sig;
  lastRs = rs;
  return sig;
}

function checkedRs(rs: Uint8Array): Uint8Array {
  if (rs.length !== 2 * WORD_BYTES) throw new InvalidValueError('signature', `${rs.length} bytes`, 'r ‖ s, 64 bytes');
  return rs;
}

/**
 * Writes a scalar as a 32-byte big-endian word straight into `out` (one hex string, no
 * intermediate arrays: a permit's signature is encoded on every order's way out). A value wider
 * than 256 bits cannot come from a signature; it throws as the byte copy always did.
 */
function writeWord32(out: Buffer, offset: number, value: bigint): void {
  const hex = value.toString(16);
  if (hex.length > 64 || value < 0n) {
    out.set(bigintTo32(value), offset);
    return;
  }
  out.write(hex.padStart(64, '0'), offset, 32, 'hex');
}

/** r ‖ s ‖ v into a Buffer, v = 27 + yParity: the signer's bytes when it gave them, else the scalars written out. */
function bytes65(sig: Signature): Buffer {
  const rs = rsBytesOf(sig);
  if (rs !== undefined) return bytes65OfRs(rs, sig.yParity);
  const out = Buffer.alloc(65);
  writeWord32(out, 0, sig.r);
  writeWord32(out, 32, sig.s);
  out[64] = 27 + sig.yParity;
  return out;
}

/** r ‖ yParityAndS into a Buffer: the top bit of s (always clear in a low-s signature) carries v. */
function bytes64(sig: Signature): Buffer {
  const rs = rsBytesOf(sig);
  if (rs !== undefined) return bytes64OfRs(rs, sig.yParity);
  const out = Buffer.alloc(64);
  writeWord32(out, 0, sig.r);
  writeWord32(out, 32, sig.yParity === 1 ? sig.s | TOP_BIT : sig.s);
  return out;
}

function bytes65OfRs(rs: Uint8Array, yParity: 0 | 1, out: Buffer = Buffer.alloc(65)): Buffer {
  out.set(rs, 0);
  out[64] = 27 + yParity;
  return out;
}

function bytes64OfRs(rs: Uint8Array, yParity: 0 | 1, out: Buffer = Buffer.alloc(64)): Buffer {
  out.set(rs, 0);
  if (yParity === 1) out[32]! |= 0x80;
  return out;
}

/** EIP-2098: r ‖ yParityAndS, the top bit of s set when v is 28. */
export function signatureBytes64(sig: Signature): Uint8Array {
  return new Uint8Array(bytes64(sig));
}

export function toHex65(sig: Signature): `0x${string}` {
  return `0x${bytes65(sig).toString('hex')}`;
}

export function toBase64Compact(sig: Signature): string {
  return bytes64(sig).toString('base64');
}

export function toBase64Full(sig: Signature): string {
  return bytes65(sig).toString('base64');
}

/**
 * `toBase64Compact(signatureOfRs(rs, yParity))`, without the two scalars read into bigints: a
 * permit signed with a signer's bytes (`signDigestRs`) needs only its encoding.
 */
export function base64CompactOfRs(rs: Uint8Array, yParity: 0 | 1): string {
  return bytes64OfRs(checkedRs(rs), yParity, scratch64).toString('base64');
}

/** `toBase64Full(signatureOfRs(rs, yParity))`, the same way. */
export function base64FullOfRs(rs: Uint8Array, yParity: 0 | 1): string {
  return bytes65OfRs(checkedRs(rs), yParity, scratch65).toString('base64');
}

/**
 * The two encodings' bytes, every one rewritten per call and only read into the text: a fresh
 * zero-filled Buffer per permit was an off-heap allocation on the order's way.
 */
const scratch64 = Buffer.alloc(64);
const scratch65 = Buffer.alloc(65);

/** Decodes 64 or 65 raw signature bytes; v may be 27/28 or 0/1. */
export function signatureFromBytes(bytes: Uint8Array, field: string): Signature {
  let sig: Signature;
  if (bytes.length === 65) {
    const v = bytes[64] ?? -1;
    const yParity = v === 27 || v === 0 ? 0 : v === 28 || v === 1 ? 1 : -1;
    if (yParity === -1) throw new InvalidValueError(field, `v=${v}`, 'v of 27, 28, 0 or 1');
    sig = { r: bytesToBigint(bytes.subarray(0, 32)), s: bytesToBigint(bytes.subarray(32, 64)), yParity };
  } else if (bytes.length === 64) {
    const ys = bytesToBigint(bytes.subarray(32, 64));
    sig = { r: bytesToBigint(bytes.subarray(0, 32)), s: ys & (TOP_BIT - 1n), yParity: ys & TOP_BIT ? 1 : 0 };
  } else {
    throw new InvalidValueError(field, `${bytes.length} bytes`, '64 bytes (EIP-2098 compact) or 65 bytes (r, s, v)');
  }
  checkScalar(sig.r, `${field}.r`);
  checkScalar(sig.s, `${field}.s`);
  return sig;
}

const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Parses a 0x-hex 65-byte signature (setup, login, WebSocket auth). */
export function parseHexSignature(text: unknown, field: string): Signature {
  if (typeof text !== 'string' || !HEX_SIGNATURE.test(text)) {
    throw new InvalidValueError(
      field,
      typeof text === 'string' ? `${text.length} chars` : text,
      '0x-prefixed hex of 65 bytes (r, s, v)',
    );
  }
  return signatureFromBytes(Uint8Array.from(Buffer.from(text.slice(2), 'hex')), field);
}

/** Parses a base64 permit signature of 64 (compact) or 65 bytes. */
export function parseBase64Signature(text: unknown, field: string): Signature {
  if (typeof text !== 'string' || !BASE64.test(text) || text.length % 4 !== 0) {
    throw new InvalidValueError(
      field,
      typeof text === 'string' ? `${text.length} chars` : text,
      'base64 of a 64- or 65-byte signature',
    );
  }
  return signatureFromBytes(Uint8Array.from(Buffer.from(text, 'base64')), field);
}

/** The address whose key produced `sig` over `digest`. */
export function recoverAddress(digest: Uint8Array, sig: Signature): Address {
  const rs = new Uint8Array(64);
  rs.set(bigintTo32(sig.r), 0);
  rs.set(bigintTo32(sig.s), 32);
  const uncompressed =
    nativeRecoverPublicKey(digest, rs, sig.yParity) ??
    new secp256k1.Signature(sig.r, sig.s).addRecoveryBit(sig.yParity).recoverPublicKey(digest).toRawBytes(false);
  return addressOfPublicKey(uncompressed);
}

/** The checksummed address of an uncompressed public key: the last 20 bytes of keccak(x ‖ y). */
export function addressOfPublicKey(uncompressed: Uint8Array): Address {
  const hash = keccak256(uncompressed.subarray(1));
  return checksumAddress(toHex(hash.subarray(12)));
}
