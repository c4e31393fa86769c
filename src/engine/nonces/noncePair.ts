import { InvalidValueError } from '../../core/invalidValueError.js';
import { checkRange, checkUint } from '../../core/integerRange.js';
import { MAX_NONCE_ANCHOR, MAX_NONCE_BITMAP_INDEX } from '../../protocol/permit.js';

/**
 * One (anchor, bit) nonce: a uint48 anchor and a bit index 0..207, consumable once on the venue.
 * Pairs are ordered anchor first, then bit; the allocator hands them out in increasing order, so
 * the highest pair handed out is all a journal needs to keep a restarted process from reusing one.
 */
export interface NoncePair {
  readonly anchor: bigint;
  readonly bit: number;
}

/** The protocol's limits (spec "Nonces"), under the names the engine uses. */
export const MAX_NONCE_BIT = MAX_NONCE_BITMAP_INDEX;
export const NONCE_BITS_PER_ANCHOR = MAX_NONCE_BIT + 1;
export { MAX_NONCE_ANCHOR };

/** The venue's nonce-state read (GET /v1/nonce-state/{account}), parsed. */
export interface NonceState {
  readonly anchor: bigint;
  /** Bit i set = index i of the current anchor is consumed. */
  readonly bitmap: bigint;
}

export function compareNoncePairs(a: NoncePair, b: NoncePair): -1 | 0 | 1 {
  if (a.anchor !== b.anchor) return a.anchor < b.anchor ? -1 : 1;
  return a.bit === b.bit ? 0 : a.bit < b.bit ? -1 : 1;
}

export function noncePairKey(pair: NoncePair): string {
  return `${pair.anchor}:${pair.bit}`;
}

/**
 * Accepts the wire shape `{nonce_anchor, current_bitmap_index, bitmap}`. The bitmap is a decimal
 * or 0x-hex integer string; `current_bitmap_index` is not needed (the bitmap says which bits are
 * consumed) and is only range-checked.
 */
export function parseNonceState(data: {
  readonly nonce_anchor: string | bigint;
  readonly current_bitmap_index?: number;
  readonly bitmap: string | bigint;
}): NonceState {
  const anchor = checkUint(data.nonce_anchor, 48, 'nonce_anchor');
  if (data.current_bitmap_index !== undefined) checkRange(data.current_bitmap_index, 0n, 255n, 'current_bitmap_index');
  let bitmap: bigint;
  if (typeof data.bitmap === 'bigint') bitmap = data.bitmap;
  else if (/^(0x[0-9a-fA-F]+|\d+)$/.test(data.bitmap)) bitmap = BigInt(data.bitmap);
  else if (data.bitmap === '') bitmap = 0n;
  else throw new InvalidValueError('bitmap', data.bitmap, 'a decimal or 0x-hex integer string');
  checkUint(bitmap, 256, 'bitmap');
  return { anchor, bitmap };
}

/** JSON-safe form for the journal. */
export function encodeNoncePair(pair: NoncePair): { anchor: string; bit: number } {
  return { anchor: pair.anchor.toString(), bit: pair.bit };
}

export function decodeNoncePair(value: unknown): NoncePair {
  if (typeof value !== 'object' || value === null) {
    throw new InvalidValueError('nonce pair', value, 'an object {anchor: string, bit: number}');
  }
  const record = value as Record<string, unknown>;
  const anchorText = record['anchor'];
  const bitValue = record['bit'];
  if (typeof anchorText !== 'string' && typeof anchorText !== 'bigint') {
    throw new InvalidValueError('nonce pair anchor', anchorText, 'a uint48 as a decimal string');
  }
  if (typeof bitValue !== 'number')
    throw new InvalidValueError('nonce pair bit', bitValue, `a whole number 0 to ${MAX_NONCE_BIT}`);
  return {
    anchor: checkUint(anchorText, 48, 'nonce pair anchor'),
    bit: Number(checkRange(bitValue, 0n, BigInt(MAX_NONCE_BIT), 'nonce pair bit')),
  };
}
