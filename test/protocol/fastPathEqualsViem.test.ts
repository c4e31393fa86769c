import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashTypedData, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSigningContext, typedDigest } from '../../src/protocol/signingContext.js';
import { domainSeparator, parseDomain } from '../../src/protocol/domain.js';
import { viemTypedData } from '../../src/protocol/viemTypedData.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { signPermit } from '../../src/protocol/permit.js';
import { parseBase64Signature, toHex65 } from '../../src/protocol/signature.js';
import type { StructMessages, StructName } from '../../src/protocol/typedStructs.js';
import { hashDomain } from 'viem';
import {
  ACCOUNT_KEY,
  DOMAIN,
  ROUTER,
  SIGNER_KEY,
  arbAddress,
  arbBit,
  arbBytes32,
  arbText,
  arbUint,
} from './fixtures.js';

const context = createSigningContext(DOMAIN, ROUTER);

/** Decimal texts as the TP/SL structs sign them (any string hashes alike; these are the usual ones). */
const arbDecimalText = fc.oneof(
  fc.constant('0'),
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.nat(18)).map(([units, scale]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }),
  arbText,
);

const arbPlaceTpsl = fc.record({
  account: arbAddress,
  marketId: arbUint(64),
  side: fc.constantFrom(0, 1),
  size: arbDecimalText,
  stopType: fc.constantFrom(0, 1),
  stopPrice: arbDecimalText,
  limitPrice: arbDecimalText,
  orderType: fc.constantFrom(0, 1),
  stopPriceOption: fc.constantFrom(0, 1),
  tif: fc.constantFrom(0, 1, 2, 3),
  deadline: arbUint(32),
});

const arbMessages: { [N in StructName]: fc.Arbitrary<StructMessages[N]> } = {
  RegisterSigner: fc.record({
    account: arbAddress,
    signer: arbAddress,
    message: arbText,
    expiration: arbUint(32),
    nonceAnchor: arbUint(48),
    nonceBitmap: arbBit,
  }),
  VerifySigner: fc.record({ account: arbAddress, nonceAnchor: arbUint(48), nonceBitmap: arbBit }),
  RevokeSigner: fc.record({ account: arbAddress, signer: arbAddress, nonceAnchor: arbUint(48), nonceBitmap: arbBit }),
  VerifyWitness: fc.record({
    account: arbAddress,
    target: arbAddress,
    hash: arbBytes32,
    nonceAnchor: arbUint(48),
    nonceBitmap: arbBit,
    deadline: arbUint(32),
  }),
  Login: fc.record({ account: arbAddress, nonce: arbUint(256), deadline: arbUint(32) }),
  RegisterV2: fc.record({ signer: arbAddress, message: arbText, nonce: arbUint(256) }),
  PermitSingle: fc.record({
    account: arbAddress,
    operator: arbAddress,
    budget: arbUint(96),
    allowanceExpiry: arbUint(32),
    nonceAnchor: arbUint(48),
    nonceBitmap: arbBit,
  }),
  PlaceTpslOrder: arbPlaceTpsl,
  PlaceTpslOrderSized: fc
    .tuple(arbPlaceTpsl, fc.integer({ min: 0, max: 10_000 }))
    .map(([order, sizePercentBps]) => ({ ...order, sizePercentBps })),
  CancelTpslOrder: fc.record({ account: arbAddress, orderId: arbText, deadline: arbUint(32) }),
  CancelAllTpslOrders: fc.record({ account: arbAddress, marketId: arbUint(64), deadline: arbUint(32) }),
};

const arbDomain = fc
  .record({
    name: arbText,
    version: arbText,
    chain: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
    verifying: arbAddress,
  })
  .map((d) =>
    parseDomain({ name: d.name, version: d.version, chain_id: d.chain.toString(), verifying_contract: d.verifying }),
  );

describe('fast path equals viem, bit for bit', () => {
  it('domain separator for random domains', () => {
    fc.assert(
      fc.property(arbDomain, (domain) => {
        expect(toHex(domainSeparator(domain))).toBe(
          hashDomain({
            domain: {
              name: domain.name,
              version: domain.version,
              chainId: domain.chainId,
              verifyingContract: domain.verifyingContract,
            },
            types: {
              EIP712Domain: [
                { name: 'name', type: 'string' },
                { name: 'version', type: 'string' },
                { name: 'chainId', type: 'uint256' },
                { name: 'verifyingContract', type: 'address' },
              ],
            },
          }),
        );
      }),
      { numRuns: 500 },
    );
  });

  for (const name of Object.keys(arbMessages) as StructName[]) {
    it(`${name}: digest over hundreds of random messages`, () => {
      fc.assert(
        fc.property(arbMessages[name] as fc.Arbitrary<StructMessages[typeof name]>, (message) => {
          const fast = toHex(typedDigest(context, name, message));
          expect(fast).toBe(hashTypedData(viemTypedData(DOMAIN, name, message)));
        }),
        { numRuns: 500 },
      );
    });
  }

  it('signatures equal viem signTypedData for every struct (deterministic RFC 6979)', async () => {
    const viemAccount = privateKeyToAccount(SIGNER_KEY);
    const fastSigner = privateKeySigner(SIGNER_KEY);
    for (const name of Object.keys(arbMessages) as StructName[]) {
      await fc.assert(
        fc.asyncProperty(arbMessages[name] as fc.Arbitrary<StructMessages[typeof name]>, async (message) => {
          const viaViem = await viemAccount.signTypedData(viemTypedData(DOMAIN, name, message));
          expect(await signTypedStruct(context, fastSigner, name, message)).toBe(viaViem);
          // A viem account satisfies the signer interface too.
          expect(await signTypedStruct(context, viemAccount, name, message)).toBe(viaViem);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('signed permits equal viem signTypedData of the VerifyWitness message', async () => {
    const viemAccount = privateKeyToAccount(SIGNER_KEY);
    const account = privateKeyToAccount(ACCOUNT_KEY).address;
    await fc.assert(
      fc.asyncProperty(arbBytes32, arbUint(48), arbBit, arbUint(32), async (hash, anchor, bit, deadline) => {
        const permit = await signPermit(context, privateKeySigner(SIGNER_KEY), {
          account,
          actionHash: hash,
          nonceAnchor: anchor,
          nonceBitmap: bit,
          deadline: Number(deadline),
        });
        const viaViem = await viemAccount.signTypedData(
          viemTypedData(DOMAIN, 'VerifyWitness', {
            account,
            target: ROUTER,
            hash,
            nonceAnchor: anchor,
            nonceBitmap: bit,
            deadline,
          }),
        );
        expect(toHex65(parseBase64Signature(permit.signature, 'permit.signature'))).toBe(viaViem);
        expect(permit).toMatchObject({
          account,
          signer: viemAccount.address,
          nonce_anchor: anchor.toString(),
          nonce_bitmap_index: bit,
          deadline: Number(deadline),
        });
      }),
      { numRuns: 200 },
    );
  });
});
