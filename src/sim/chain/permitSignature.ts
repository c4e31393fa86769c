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

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
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
  if (typeof text !== 'string' || text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  let yParity: 0 | 1;
  if (bytes.length === 65) {
    const v = bytes[64] as number;
    if (v === 27 || v === 0) yParity = 0;
    else if (v === 28 || v === 1) yParity = 1;
    else return undefined;
  } else if (bytes.length === 64) {
    yParity = (bytes[32] as number) & 0x80 ? 1 : 0;
  } else {
    return undefined;
  }
  const rs = new Uint8Array(64);
  rs.set(bytes.subarray(0, 64));
  rs[32] = (rs[32] as number) & (bytes.length === 64 ? 0x7f : 0xff);
  if (!isScalar(rs, 0) || !isScalar(rs, 32)) return undefined;
  return { text, rs, yParity };
}

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
  let hex = keyAddresses.get(key);
  if (hex === undefined) {
    const hash = keccak256(uncompressed.subarray(1));
    hex = Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex');
    keyAddresses.set(key, hex);
  }
  return hex;
}

const keyAddresses = new BoundedMap<string, string>(10_000);
