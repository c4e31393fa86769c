import type { Address } from 'viem';
import { checksumAddress, isHexAddress } from './checksumAddress.js';
import { InvalidValueError } from './invalidValueError.js';

export type { Address };

/**
 * Parses a 0x address and returns its EIP-55 checksummed form. Accepts all-lowercase and
 * all-uppercase hex; a mixed-case address must carry a valid checksum (a typo in a checksummed
 * address is caught here rather than sending funds or permits to the wrong place).
 */
export function parseAddress(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !isHexAddress(value)) {
    throw new InvalidValueError(field, value, 'a 0x-prefixed 20-byte hex address');
  }
  const body = value.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  const checksummed = checksumAddress(value);
  if (mixed && checksummed !== value) {
    throw new InvalidValueError(
      field,
      value,
      'an address with a valid EIP-55 checksum',
      `did you mean ${checksummed}?`,
    );
  }
  return checksummed;
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
