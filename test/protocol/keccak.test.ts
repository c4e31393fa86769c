import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keccak_256 } from '@noble/hashes/sha3';
import { keccak256, keccakImplementation, loadNativeKeccak } from '../../src/protocol/keccak.js';

describe('keccak256', () => {
  it('uses the WebAssembly implementation here (WebAssembly is there in every Node this runs on)', () => {
    expect(keccakImplementation).toBe('wasm');
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

describe('the native fallback (a Node without WebAssembly)', () => {
  it('loads here and equals @noble/hashes keccak_256 on random inputs, including subarray views', () => {
    const native = loadNativeKeccak();
    expect(native).not.toBeNull();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(8), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        expect(Buffer.from(native!(view)).toString('hex')).toBe(Buffer.from(keccak_256(view)).toString('hex'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('keccak256 digests are independent of one another', () => {
  it('gives the same digest for the same input whatever was hashed before it', () => {
    const a = new Uint8Array([1, 2, 3]);
    const first = Buffer.from(keccak256(a)).toString('hex');
    keccak256(new Uint8Array(500).fill(7));
    keccak256(new Uint8Array(0));
    expect(Buffer.from(keccak256(a)).toString('hex')).toBe(first);
  });

  it('returns a digest that a later call does not overwrite', () => {
    const kept = keccak256(new Uint8Array([9]));
    const copy = Buffer.from(kept).toString('hex');
    keccak256(new Uint8Array([10]));
    expect(Buffer.from(kept).toString('hex')).toBe(copy);
  });
});
