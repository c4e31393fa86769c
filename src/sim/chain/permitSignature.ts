import { checksumAddress } from '../../core/checksumAddress.js';
import type { Address } from '../../core/address.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { keccak256 } from '../../protocol/keccak.js';
import { loadNativeSecp256k1 } from '../../protocol/nativeSecp256k1.js';
import { parseBase64Signature, recoverAddress } from '../../protocol/signature.js';
import { invalidArgument } from '../simRefusal.js';
import { BoundedMap } from '../../core/boundedMap.js';

/**
 * A permit signature as the recovery needs it: the 64-byte r ‖ s (s without the EIP-2098 parity
 * bit) and the parity. The simulator recovers one for every permit, so the base64 goes straight
 * into these bytes instead of through bigints and back (protocol `parseBase64Signature` then
 * `recoverAddress`). Anything the fast decode does not accept as plainly valid is handed to
 * `parseBase64Signature`, so a refusal has exactly its text.
 */
export interface PermitSignature {
  readonly text: string;
  readonly rs: Uint8Array;
  readonly yParity: 0 | 1;
}

/** secp256k1's group order n, big-endian: r and s must lie in 1 .. n-1. */
const ORDER = Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex');
const FIELD = 'permit.signature';

export function decodePermitSignature(text: string): PermitSignature {
  const fast = fastDecode(text);
  if (fast !== undefined) return fast;
  // Not plainly valid: the protocol parser names the problem (it throws for everything the fast
  // path refuses; if it ever accepted, its bytes are used).
  try {
    const sig = parseBase64Signature(text, FIELD);
    const rs = new Uint8Array(64);
    rs.set(Buffer.from(sig.r.toString(16).padStart(64, '0'), 'hex'), 0);
    rs.set(Buffer.from(sig.s.toString(16).padStart(64, '0'), 'hex'), 32);
    return { text, rs, yParity: sig.yParity };
  } catch (error) {
    if (error instanceof InvalidValueError) throw invalidArgument(error.message);
    throw error;
  }
}

function fastDecode(text: string): PermitSignature | undefined {
  const bytes = base64Signature(text);
  if (bytes === undefined) return undefined;
  let yParity: 0 | 1;
  if (bytes.length === 65) {
    const v = bytes[64] as number;
    if (v === 27 || v === 0) yParity = 0;
    else if (v === 28 || v === 1) yParity = 1;
    else return undefined;
  } else {
    yParity = (bytes[32] as number) & 0x80 ? 1 : 0;
  }
  const rs = bytes.length === 64 ? bytes : bytes.subarray(0, 64);
  if (bytes.length === 64) rs[32] = (rs[32] as number) & 0x7f;
  if (!isScalar(rs, 0) || !isScalar(rs, 32)) return undefined;
  return { text, rs, yParity };
}

/** Each base64 character's six bits; -1 for any other character. */
const SEXTETS = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  SEXTETS[c.charCodeAt(0)] = i;

function sextet(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? (SEXTETS[code] as number) : -1;
}

/**
 * The bytes of a signature's base64 as `Buffer.from(text, 'base64')` decodes it, for the only
 * texts of 64 or 65 bytes the pattern `^[A-Za-z0-9+/]+={0,2}$` with a length divisible by four
 * admits: 86 characters and `==`, or 87 and `=` (the unused low bits of the last character
 * ignored, as Buffer ignores them). Decoded in one pass, without the pattern, a pooled Buffer and
 * a copy; undefined for anything else.
 */
function base64Signature(text: string): Uint8Array | undefined {
  if (typeof text !== 'string' || text.length !== 88 || text.charCodeAt(87) !== EQUALS) return undefined;
  const full = text.charCodeAt(86) !== EQUALS;
  const out = new Uint8Array(full ? 65 : 64);
  let o = 0;
  // 21 groups of four characters: 63 bytes.
  for (let i = 0; i < 84; i += 4) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    const d = sextet(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    out[o++] = (a << 2) | (b >> 4);
    out[o++] = ((b & 15) << 4) | (c >> 2);
    out[o++] = ((c & 3) << 6) | d;
  }
  const a = sextet(text, 84);
  const b = sextet(text, 85);
  if ((a | b) < 0) return undefined;
  out[o++] = (a << 2) | (b >> 4);
  if (!full) return out;
  const c = sextet(text, 86);
  if (c < 0) return undefined;
  out[o] = ((b & 15) << 4) | (c >> 2);
  return out;
}

const EQUALS = 0x3d;

/** True when the 32 bytes at `offset` are in 1 .. n-1. */
function isScalar(bytes: Uint8Array, offset: number): boolean {
  let zero = true;
  for (let i = 0; i < 32; i++) {
    if (bytes[offset + i] !== 0) {
      zero = false;
      break;
    }
  }
  if (zero) return false;
  for (let i = 0; i < 32; i++) {
    const b = bytes[offset + i] as number;
    const n = ORDER[i] as number;
    if (b !== n) return b < n;
  }
  return false;
}

/**
 * The address that signed `digest`, checksummed, when it is `expected`: then `expected` itself
 * (already checksummed by the body schema) is returned and no checksum is computed. Otherwise the
 * recovered address, checksummed, as `recoverAddress` gives it (it goes into the revert text).
 * The key is recovered into one reused buffer; a key already seen to be `expected`'s is known by
 * its bytes (an address is a function of the key), without hashing it to an address again.
 */
export function recoverSigner(digest: Uint8Array, signature: PermitSignature, expected: Address): Address {
  const native = loadNativeSecp256k1();
  if (native === null) return recoverAddress(digest, parseBase64Signature(signature.text, FIELD));
  const uncompressed = native.ecdsaRecover(signature.rs, signature.yParity, digest, false, RECOVERED);
  if (signerKeys.get(expected)?.equals(uncompressed) === true) return expected;
  const hex = addressHexOf(uncompressed);
  if (hex !== expected.slice(2).toLowerCase()) return checksumAddress(`0x${hex}`);
  signerKeys.set(expected, Buffer.from(uncompressed));
  return expected;
}

/** The output of every recovery (its bytes are copied by whatever keeps them). */
const RECOVERED = new Uint8Array(65);

/** The uncompressed public key of each signer address a recovery has matched, bounded. */
const signerKeys = new BoundedMap<string, Buffer>(10_000);

/**
 * The lowercase hex address of an uncompressed public key: the last 20 bytes of keccak(x ‖ y).
 * Remembered per key (a session key signs request after request), within a bound.
 */
function addressHexOf(uncompressed: Uint8Array): string {
  const key = Buffer.from(uncompressed.buffer, uncompressed.byteOffset, uncompressed.byteLength).toString('latin1');
  return keyAddresses.get(key) ?? keyAddresses.remember(key, () => addressHexOfKey(uncompressed));
}

function addressHexOfKey(uncompressed: Uint8Array): string {
  const hash = keccak256(uncompressed.subarray(1));
  return Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex');
}

const keyAddresses = new BoundedMap<string, string>(10_000);
