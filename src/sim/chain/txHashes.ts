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
