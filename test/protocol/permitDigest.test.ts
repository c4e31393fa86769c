import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Address } from '../../src/core/address.js';
import { permitDigest, type PermitRequest } from '../../src/protocol/permit.js';
import { verifyWitnessDigestOfStruct } from '../../src/protocol/verifyWitnessDigest.js';
import { arbAddress, arbBit, arbBytes32, arbUint, CONTEXT } from './fixtures.js';

/** The digest, or the text of what refused it: both paths must answer the same either way. */
function outcome(digest: (request: PermitRequest) => Uint8Array, request: PermitRequest): string {
  try {
    return Buffer.from(digest(request)).toString('hex');
  } catch (error) {
    return `threw ${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

const genericPermitDigest = verifyWitnessDigestOfStruct;

const anyValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(1n << 60n), max: 1n << 60n }),
  fc.string(),
  fc.constantFrom(undefined, null, Number.NaN, 2 ** 32, 2 ** 48, -1, 207.5),
);

const validRequest: fc.Arbitrary<PermitRequest> = fc.record({
  account: arbAddress,
  actionHash: fc.oneof(
    arbBytes32,
    arbBytes32.map((h) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'))),
  ),
  nonceAnchor: arbUint(48),
  nonceBitmap: arbBit,
  deadline: arbUint(32).map(Number),
});

/** A valid request with one field replaced by anything at all. */
const strayRequest: fc.Arbitrary<PermitRequest> = fc
  .tuple(
    validRequest,
    fc.constantFrom('account', 'actionHash', 'nonceAnchor', 'nonceBitmap', 'deadline'),
    fc.oneof(
      anyValue,
      arbBytes32.map((h) => h.slice(0, -2)),
      fc.constant('0xzz' as const),
    ),
  )
  .map(([request, key, value]): PermitRequest => ({ ...request, [key]: value }));

describe('permitDigest', () => {
  it('writes the same digest as the general struct hash for every permit in range', () => {
    fc.assert(
      fc.property(validRequest, (request) => {
        const direct = outcome((r) => permitDigest(CONTEXT, r), request);
        expect(direct).toMatch(/^[0-9a-f]{64}$/);
        expect(direct).toBe(outcome((r) => genericPermitDigest(CONTEXT, r), request));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what the general struct hash refuses, in its words, and takes the rest alike', () => {
    fc.assert(
      fc.property(strayRequest, (request) => {
        expect(outcome((r) => permitDigest(CONTEXT, r), request)).toBe(
          outcome((r) => genericPermitDigest(CONTEXT, r), request),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('writes the anchor, bitmap index and deadline at their widths (edges of each)', () => {
    const base = {
      account: '0x1111111111111111111111111111111111111111' as Address,
      actionHash: `0x${'ab'.repeat(32)}` as const,
    };
    for (const [nonceAnchor, nonceBitmap, deadline] of [
      [0n, 0, 0],
      [(1n << 48n) - 1n, 207, 2 ** 32 - 1],
      [1n << 32n, 1, 2 ** 31],
      [(1n << 32n) - 1n, 206, 1],
    ] as const) {
      const request = { ...base, nonceAnchor, nonceBitmap, deadline };
      expect(outcome((r) => permitDigest(CONTEXT, r), request)).toBe(
        outcome((r) => genericPermitDigest(CONTEXT, r), request),
      );
    }
    expect(() => permitDigest(CONTEXT, { ...base, nonceAnchor: 1n << 48n, nonceBitmap: 0, deadline: 0 })).toThrow(
      /nonceAnchor/,
    );
    expect(() => permitDigest(CONTEXT, { ...base, nonceAnchor: 0n, nonceBitmap: 208, deadline: 0 })).toThrow(
      /nonceBitmap/,
    );
  });
});
