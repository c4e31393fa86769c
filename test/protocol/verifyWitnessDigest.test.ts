import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  verifyWitnessDigest,
  verifyWitnessDigestOfStruct,
  type VerifyWitnessFields,
} from '../../src/protocol/verifyWitnessDigest.js';
import { arbPermitFields, CONTEXT as context, ROUTER } from './fixtures.js';

const generalDigest = (f: VerifyWitnessFields) => verifyWitnessDigestOfStruct(context, f);

const arbFields: fc.Arbitrary<VerifyWitnessFields> = arbPermitFields;

const hexText = (text: string): `0x${string}` => text as `0x${string}`;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (hash: `0x${string}` | Uint8Array) =>
  typeof hash === 'string' ? new Uint8Array(Buffer.from(hash.slice(2), 'hex')) : hash;

const base: VerifyWitnessFields = {
  account: ROUTER,
  actionHash: `0x${'ab'.repeat(32)}`,
  nonceAnchor: 5n,
  nonceBitmap: 3,
  deadline: 1_800_000_000,
};

describe('verifyWitnessDigest', () => {
  it("equals typedDigest's VerifyWitness digest on random permits, the hash given as hex or as bytes", () => {
    fc.assert(
      fc.property(arbFields, (f) => {
        const expected = hex(generalDigest(f));
        expect(hex(verifyWitnessDigest(context, f))).toBe(expected);
        expect(hex(verifyWitnessDigest(context, { ...f, actionHash: bytesOf(f.actionHash) }))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves nothing of a wide permit in the next one (the words are written in place)', () => {
    const wide = { ...base, nonceAnchor: (1n << 48n) - 1n, nonceBitmap: 207, deadline: 0xffff_ffff };
    verifyWitnessDigest(context, wide);
    expect(hex(verifyWitnessDigest(context, base))).toBe(hex(generalDigest(base)));
    expect(hex(verifyWitnessDigest(context, { ...base, nonceAnchor: 0n, nonceBitmap: 0, deadline: 0 }))).toBe(
      hex(generalDigest({ ...base, nonceAnchor: 0n, nonceBitmap: 0, deadline: 0 })),
    );
  });

  it.each([
    ['an anchor beyond uint48', { nonceAnchor: 1n << 48n }, /^VerifyWitness.nonceAnchor: invalid value/],
    ['a negative anchor', { nonceAnchor: -1n }, /^VerifyWitness.nonceAnchor: invalid value/],
    ['bit index 208', { nonceBitmap: 208 }, /^VerifyWitness.nonceBitmap: invalid value 208; allowed: 0 to 207$/],
    ['a fractional bit index', { nonceBitmap: 1.5 }, /^VerifyWitness.nonceBitmap: invalid value 1.5/],
    ['a deadline beyond uint32', { deadline: 2 ** 32 }, /^VerifyWitness.deadline: invalid value 4294967296/],
    ['a malformed account', { account: hexText('0x1234') }, /^VerifyWitness.account: invalid value "0x1234"/],
    ['a short hex hash', { actionHash: hexText('0xabcd') }, /^VerifyWitness.hash: invalid value "0xabcd"/],
    ['a hash of 31 bytes', { actionHash: new Uint8Array(31) }, /^VerifyWitness.hash: invalid value "31 bytes"/],
  ])('refuses %s as structHash does', (_label, change, message) => {
    expect(() => verifyWitnessDigest(context, { ...base, ...change })).toThrow(message);
    expect(() => generalDigest({ ...base, ...change })).toThrow(message);
  });
});
