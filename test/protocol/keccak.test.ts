import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keccak_256 } from '@noble/hashes/sha3';
import { keccak256, keccakImplementation } from '../../src/protocol/keccak.js';

describe('keccak256', () => {
  it('uses the native implementation here (the optional dependency installs from the registry)', () => {
    expect(keccakImplementation).toBe('native');
  });

  it('equals @noble/hashes keccak_256 on random inputs, including subarray views', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(8), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        expect(Buffer.from(keccak256(view)).toString('hex')).toBe(Buffer.from(keccak_256(view)).toString('hex'));
      }),
      { numRuns: 2000 },
    );
  });
});
