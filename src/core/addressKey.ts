import { BoundedMap } from './boundedMap.js';

/**
 * The case-free key of an address text, for maps keyed by account or signer: its lower case.
 * Remembered per text (bounded): a venue looks the same few addresses up several times per
 * request, and each `toLowerCase` made a new string that every map lookup then hashed again.
 */
export function addressKey(address: string): string {
  let key = keys.get(address);
  if (key === undefined) {
    key = address.toLowerCase();
    keys.set(address, key);
  }
  return key;
}

const keys = new BoundedMap<string, string>(10_000);
