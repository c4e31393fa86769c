import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { permitDigest, signPermitNow, type PermitRequest, type PermitWire } from '../../src/protocol/permit.js';
import { toBase64Compact, toBase64Full, type Signature } from '../../src/protocol/signature.js';
import { placeholderSigner } from '../../src/runtime/replay/replaySigner.js';
import { arbPermitFields, CONTEXT } from './fixtures.js';

const request: fc.Arbitrary<PermitRequest> = arbPermitFields;

const SIGNER = '0x00000000000000000000000000000000000000a1';

/** A signer that answers `signature` and notes the digests it was handed. */
function noting(signature: Signature, ignoresDigest: boolean) {
  const digests: Uint8Array[] = [];
  const signer = {
    address: SIGNER,
    ...(ignoresDigest ? { ignoresDigest: true } : {}),
    signDigest: (digest: Uint8Array): Signature => {
      digests.push(digest);
      return signature;
    },
  } as const;
  return { signer, digests };
}

describe('signPermitNow', () => {
  it('hands a signer that ignores the digest none, and writes the same permit as for one that reads it', () => {
    fc.assert(
      fc.property(
        request,
        fc.boolean(),
        fc.constantFrom<'compact64' | 'full65'>('compact64', 'full65'),
        (r, frozen, encoding) => {
          const signature: Signature = { r: 5n, s: 7n, yParity: 1 };
          if (frozen) Object.freeze(signature);
          const reads = noting(signature, false);
          const ignores = noting(signature, true);
          const read = signPermitNow(CONTEXT, reads.signer, r, encoding) as PermitWire;
          const ignored = signPermitNow(CONTEXT, ignores.signer, r, encoding) as PermitWire;
          expect(ignored).toEqual(read);
          expect(reads.digests).toEqual([permitDigest(CONTEXT, r)]);
          expect(ignores.digests).toEqual([new Uint8Array(32)]);
          expect(read.signature).toBe(encoding === 'compact64' ? toBase64Compact(signature) : toBase64Full(signature));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes a replay's placeholder signature's text as for any signature, each time", () => {
    const signer = placeholderSigner(SIGNER);
    const sample = fc.sample(request, 3);
    const permits = sample.map((r) => signPermitNow(CONTEXT, signer, r) as PermitWire);
    const text = toBase64Compact(signer.signDigest(new Uint8Array(32)));
    expect(permits.map((p) => p.signature)).toEqual([text, text, text]);
    const full = signPermitNow(CONTEXT, signer, sample[0]!, 'full65') as PermitWire;
    expect(full.signature).toBe(toBase64Full(signer.signDigest(new Uint8Array(32))));
  });
});
