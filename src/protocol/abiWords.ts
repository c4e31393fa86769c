import { checkInt, checkUint } from '../core/integerRange.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { parseAddress } from '../core/address.js';
import { BoundedMap } from '../core/boundedMap.js';

/**
 * Writing ABI words (32 bytes each) straight into a preallocated buffer: the hashing fast path
 * never builds hex strings. Every value is range-checked for its declared width first.
 */
export const WORD = 32;

export function writeUintWord(buf: Uint8Array, offset: number, value: bigint): void {
  // Most words hold small values (flags, indexes, deadlines, anchors): the last four bytes only.
  if (value >= 0n && value <= 0xffffffffn) {
    const n = Number(value);
    const end = offset + WORD - 1;
    buf[end] = n & 0xff;
    buf[end - 1] = (n >>> 8) & 0xff;
    buf[end - 2] = (n >>> 16) & 0xff;
    buf[end - 3] = n >>> 24;
    return;
  }
  let v = value;
  // Four bytes per bigint step rather than one: each bigint operation allocates.
  for (let i = offset + WORD - 1; i >= offset && v > 0n; i -= 4) {
    const chunk = Number(v & 0xffffffffn);
    v >>= 32n;
    buf[i] = chunk & 0xff;
    buf[i - 1] = (chunk >>> 8) & 0xff;
    buf[i - 2] = (chunk >>> 16) & 0xff;
    buf[i - 3] = chunk >>> 24;
  }
}

/** Signed values are sign-extended to 256 bits, as ABI encoding does. */
export function writeIntWord(buf: Uint8Array, offset: number, value: bigint): void {
  writeUintWord(buf, offset, value < 0n ? (1n << 256n) + value : value);
}

export function writeCheckedUint(
  buf: Uint8Array,
  offset: number,
  value: bigint | number,
  bits: number,
  field: string,
): void {
  writeUintWord(buf, offset, checkUint(value, bits, field));
}

export function writeCheckedInt(
  buf: Uint8Array,
  offset: number,
  value: bigint | number,
  bits: number,
  field: string,
): void {
  writeIntWord(buf, offset, checkInt(value, bits, field));
}

export function writeAddressWord(buf: Uint8Array, offset: number, address: string, field: string): void {
  let bytes = addressWords.get(address);
  if (bytes === undefined) {
    bytes = hexBytes(parseAddress(address, field), 20, field);
    // Checksum validation hashes the address; a signer sees the same few addresses over and over.
    addressWords.set(address, bytes);
  }
  buf.set(bytes, offset + 12);
}

/** The 20 bytes of every address text that parsed, keyed by the text as given (bounded). */
const addressWords = new BoundedMap<unknown, Uint8Array>(10_000);

export function writeBytes32Word(buf: Uint8Array, offset: number, value: string | Uint8Array, field: string): void {
  if (typeof value !== 'string') {
    buf.set(checkLength(value, 32, field), offset);
    return;
  }
  checkHex(value, 32, field);
  // Decoded in place: no intermediate array per word (a permit's action hash, on every order).
  Buffer.from(buf.buffer, buf.byteOffset + offset, WORD).write(value.slice(2), 'hex');
}

function checkHex(hex: string, length: number, field: string): void {
  if (typeof hex !== 'string' || hex.length !== 2 + length * 2 || !/^0x[0-9a-fA-F]*$/.test(hex)) {
    throw new InvalidValueError(field, hex, `0x-prefixed hex of ${length} bytes`);
  }
}

/** Decodes 0x-prefixed hex of exactly `length` bytes. */
export function hexBytes(hex: string, length: number, field: string): Uint8Array {
  checkHex(hex, length, field);
  // One copy out of node's pooled Buffer (Uint8Array.from would iterate byte by byte).
  const out = new Uint8Array(length);
  out.set(Buffer.from(hex.slice(2), 'hex'));
  return out;
}

function checkLength(bytes: Uint8Array, length: number, field: string): Uint8Array {
  if (bytes.length !== length) throw new InvalidValueError(field, `${bytes.length} bytes`, `exactly ${length} bytes`);
  return bytes;
}

export function toHex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}
