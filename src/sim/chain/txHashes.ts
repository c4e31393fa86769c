import { utf8ToBytes } from '@noble/hashes/utils';
import { keccak256 } from '../../protocol/keccak.js';
import { toHex } from '../../protocol/abiWords.js';

/**
 * Deterministic 32-byte hashes and addresses derived from the seed, so two runs with the same
 * seed produce the same transaction hashes and contract addresses.
 */
export function seededHash(seed: number, label: string): `0x${string}` {
  return toHex(keccak256(utf8ToBytes(`perpbot-sim:${seed}:${label}`)));
}

export function seededAddress(seed: number, label: string): `0x${string}` {
  return `0x${seededHash(seed, label).slice(-40)}`;
}

/**
 * The hash of transaction number `counter` (from 1): eight 32-bit words, each a bijective mix of
 * the counter's low 32 bits under a key from the seed, the high bits and the word's index. Not a
 * keccak: it only has to look like a hash and be unique, and it is minted for every action (a
 * keccak of a formatted label cost more than the rest of the receipt). Word 0 is a bijection of
 * the low 32 bits, so the first 4 billion hashes of a run are distinct by construction.
 */
export function seededTxHash(seed: number, counter: number): `0x${string}` {
  const low = counter >>> 0;
  const high = Math.floor(counter / 0x1_0000_0000) >>> 0;
  let text = '0x';
  for (let i = 0; i < 8; i++) {
    const key = fmix32((seed ^ fmix32(high + Math.imul(i + 1, 0x9e3779b9))) >>> 0);
    text += wordHex(fmix32((low ^ key) >>> 0));
  }
  // Made flat once: read as a rope of its 25 parts, every later reader would flatten it again.
  text.charCodeAt(0);
  return text as `0x${string}`;
}

/**
 * A uint32 as 8 lower-case hex digits, a byte at a time from a table. In a replay this was a
 * Buffer's `toString('hex')` of the whole hash: a native call that cost about 5 µs a hash in
 * place (one per action and per block), for 66 characters.
 */
function wordHex(word: number): string {
  return (
    HEX_BYTES[word >>> 24]! +
    HEX_BYTES[(word >>> 16) & 0xff]! +
    HEX_BYTES[(word >>> 8) & 0xff]! +
    HEX_BYTES[word & 0xff]!
  );
}

const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** MurmurHash3's 32-bit finaliser: a bijection on uint32 with full avalanche. */
function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
