import { keccak_256 } from '@noble/hashes/sha3';
import type { Address } from 'viem';
import { BoundedMap } from './boundedMap.js';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Whether `value` is 0x and 40 hex digits, in any case (the checksum is not looked at). */
export function isHexAddress(value: string): boolean {
  return HEX_ADDRESS.test(value);
}

/**
 * The EIP-55 mixed-case form of a 0x address: a hex letter is upper case where the keccak-256 of
 * the lower-case hex has a nibble of 8 or more. viem's `getAddress` does the same, but importing
 * viem's root loads some 400 modules, a second of every CLI start under tsx (tested equal).
 */
export function checksumAddress(value: string): Address {
  if (!isHexAddress(value)) throw new RangeError(`not a 0x address of 40 hex digits: ${JSON.stringify(value)}`);
  // A few accounts recur (every recorded trade names its two): remembered, as viem's getAddress does.
  return CHECKSUMMED.remember(value.slice(2).toLowerCase(), eip55);
}

const CHECKSUMMED = new BoundedMap<string, Address>(4096);

function eip55(lower: string): Address {
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i += 1) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as Address;
}
