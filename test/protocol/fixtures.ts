import fc from 'fast-check';
import { getAddress, type Address } from 'viem';
import { parseDomain } from '../../src/protocol/domain.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import type { VerifyWitnessFields } from '../../src/protocol/verifyWitnessDigest.js';

/** Fixed, publicly known test keys (the first two of the standard development mnemonic). */
export const ACCOUNT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;
export const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;

export const DOMAIN = parseDomain({
  name: 'RISEx',
  version: '1',
  chain_id: '11155931',
  verifying_contract: '0x1111111111111111111111111111111111111111',
});
export const ROUTER = getAddress('0x2222222222222222222222222222222222222222');
/** The signing context of DOMAIN and ROUTER, for tests that sign without a venue. */
export const CONTEXT = createSigningContext(DOMAIN, ROUTER);

export const arbAddress: fc.Arbitrary<Address> = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => getAddress(`0x${Buffer.from(b).toString('hex')}`));

export const arbBytes32: fc.Arbitrary<`0x${string}`> = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => `0x${Buffer.from(b).toString('hex')}` as const);

/** Unsigned integers of a width with the boundary values weighted in. */
export function arbUint(bits: number, min = 0n): fc.Arbitrary<bigint> {
  const max = (1n << BigInt(bits)) - 1n;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(min, min + 1n, max - 1n, max) },
    { weight: 4, arbitrary: fc.bigInt({ min, max }) },
  );
}

export const arbBit: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1, 206, 207), fc.integer({ min: 0, max: 207 }));

export const arbText: fc.Arbitrary<string> = fc.oneof(fc.constant(''), fc.string(), fc.string({ unit: 'grapheme' }));

/** A permit's fields, each across its whole range (what a permit request and the witness digest take). */
export const arbPermitFields: fc.Arbitrary<VerifyWitnessFields> = fc.record({
  account: arbAddress,
  actionHash: arbBytes32,
  nonceAnchor: arbUint(48),
  nonceBitmap: arbBit,
  deadline: arbUint(32).map(Number),
});
