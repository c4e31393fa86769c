import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { recoverAddress as viemRecover, toHex } from 'viem';
import { givesRs, privateKeySigner } from '../../src/protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../src/protocol/nativeSigner.js';
import {
  base64CompactOfRs,
  base64FullOfRs,
  parseBase64Signature,
  parseHexSignature,
  recoverAddress,
  signatureBytes64,
  signatureOfRs,
  toBase64Compact,
  toBase64Full,
  toHex65,
} from '../../src/protocol/signature.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import { permitDigest, signPermit, signPermitNow } from '../../src/protocol/permit.js';
import { recoverTypedStructSigner } from '../../src/protocol/typedSignatures.js';
import { ACCOUNT_KEY, DOMAIN, ROUTER, SIGNER_KEY } from './fixtures.js';

/** Malformed hex typed as hex, to reach the signer's own checks. */
const hexText = (text: string): `0x${string}` => text as `0x${string}`;

const signer = privateKeySigner(SIGNER_KEY);

describe('signature encodings', () => {
  it('round-trip through all three encodings and recover the signer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (digest) => {
        const sig = signer.signDigest(digest);
        const hex = toHex65(sig);
        expect(parseHexSignature(hex, 's')).toEqual(sig);
        expect(parseBase64Signature(toBase64Compact(sig), 's')).toEqual(sig);
        expect(parseBase64Signature(toBase64Full(sig), 's')).toEqual(sig);
        expect(recoverAddress(digest, sig)).toBe(signer.address);
        expect(await viemRecover({ hash: toHex(digest), signature: hex })).toBe(signer.address);
      }),
      { numRuns: 150 },
    );
  });

  it("encodes a signature made from a signer's r ‖ s bytes exactly as one made from its scalars", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
        const plain = signer.signDigest(digest);
        const rs = new Uint8Array(signatureBytes64({ ...plain, yParity: 0 }));
        const fromBytes = signatureOfRs(rs, plain.yParity);
        expect(fromBytes).toEqual(plain);
        expect(Object.isFrozen(fromBytes)).toBe(true);
        expect(toBase64Compact(fromBytes)).toBe(toBase64Compact({ ...plain }));
        expect(toBase64Full(fromBytes)).toBe(toBase64Full({ ...plain }));
        expect(toHex65(fromBytes)).toBe(toHex65({ ...plain }));
        // The bytes are copied into each encoding, never changed.
        expect(signatureBytes64(fromBytes)[32]! & 0x80).toBe(plain.yParity === 1 ? 0x80 : 0);
        expect(rs[32]! & 0x80).toBe(0);
      }),
      { numRuns: 150 },
    );
    expect(() => signatureOfRs(new Uint8Array(65), 0)).toThrow(/signature: invalid value "65 bytes"/);
    // An earlier one, encoded after a later one was made, encodes the same.
    const first = signer.signDigest(new Uint8Array(32).fill(1));
    const earlier = signatureOfRs(new Uint8Array(signatureBytes64({ ...first, yParity: 0 })), first.yParity);
    signatureOfRs(new Uint8Array(signatureBytes64({ ...first, r: first.r - 1n, yParity: 0 })), 0);
    expect(toBase64Compact(earlier)).toBe(toBase64Compact({ ...first }));
  });

  it("encodes a signer's r ‖ s bytes without a Signature exactly as through one", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.constantFrom<0 | 1>(0, 1), (rs, yParity) => {
        const copy = Uint8Array.from(rs);
        expect(base64CompactOfRs(rs, yParity)).toBe(toBase64Compact(signatureOfRs(Uint8Array.from(rs), yParity)));
        expect(base64FullOfRs(rs, yParity)).toBe(toBase64Full(signatureOfRs(Uint8Array.from(rs), yParity)));
        expect(rs).toEqual(copy);
      }),
      { numRuns: 300 },
    );
    for (const encode of [base64CompactOfRs, base64FullOfRs])
      expect(() => encode(new Uint8Array(65), 0)).toThrow(/signature: invalid value "65 bytes"/);
  });

  it('sets the top bit of s in the compact form exactly when v is 28', () => {
    const seen = new Set<number>();
    for (let i = 0; seen.size < 2 && i < 64; i++) {
      const digest = new Uint8Array(32).fill(i);
      const sig = signer.signDigest(digest);
      const compact = signatureBytes64(sig);
      expect((compact[32]! & 0x80) !== 0).toBe(sig.yParity === 1);
      expect(parseHexSignature(toHex65(sig), 's').yParity).toBe(sig.yParity);
      expect(toHex65(sig).slice(-2)).toBe(sig.yParity === 1 ? '1c' : '1b');
      seen.add(sig.yParity);
    }
    expect(seen.size).toBe(2);
  });

  it.each([
    [
      'hex of 64 bytes',
      () => parseHexSignature(`0x${'11'.repeat(64)}`, 'account_signature'),
      /account_signature: invalid value/,
    ],
    ['hex without 0x', () => parseHexSignature('11'.repeat(65), 'account_signature'), /0x-prefixed hex of 65 bytes/],
    ['bad v', () => parseHexSignature(`0x${'11'.repeat(64)}1d`, 'sig'), /sig: invalid value "v=29"/],
    ['zero r', () => parseHexSignature(`0x${'00'.repeat(32)}${'11'.repeat(32)}1b`, 'sig'), /sig.r: invalid value/],
    [
      'base64 of 63 bytes',
      () => parseBase64Signature(Buffer.alloc(63, 1).toString('base64'), 'permit.signature'),
      /64 bytes .* or 65 bytes/,
    ],
    [
      'not base64',
      () => parseBase64Signature('not base64!', 'permit.signature'),
      /base64 of a 64- or 65-byte signature/,
    ],
  ])('refuses a malformed signature: %s', (_label, attempt, message) => {
    expect(attempt).toThrow(message);
  });
});

describe('permits', () => {
  const context = createSigningContext(DOMAIN, ROUTER);
  const account = privateKeyToAccount(ACCOUNT_KEY).address;
  const base = {
    account,
    actionHash: `0x${'ab'.repeat(32)}` as const,
    nonceAnchor: 7n,
    nonceBitmap: 0,
    deadline: 1_900_000_000,
  };

  it('recovers the signer from both base64 forms; a wrong target recovers some other address', async () => {
    for (const encoding of ['compact64', 'full65'] as const) {
      const permit = await signPermit(context, signer, base, encoding);
      const sig = parseBase64Signature(permit.signature, 'permit.signature');
      expect(Buffer.from(permit.signature, 'base64').length).toBe(encoding === 'compact64' ? 64 : 65);
      expect(recoverAddress(permitDigest(context, base), sig)).toBe(signer.address);
      const wrongTarget = createSigningContext(DOMAIN, account);
      expect(recoverAddress(permitDigest(wrongTarget, base), sig)).not.toBe(signer.address);
      expect(
        recoverTypedStructSigner(context, 'VerifyWitness', { ...base, hash: base.actionHash, target: ROUTER }, sig),
      ).toBe(signer.address);
    }
  });

  it("signed with a signer's bytes (signDigestRs), is the permit signed through its Signature", () => {
    const native = fastPrivateKeySigner(SIGNER_KEY);
    expect(givesRs(native)).toBe(true);
    // The same key without signDigestRs: the general way, through a Signature.
    const general = { address: native.address, signDigest: (digest: Uint8Array) => native.signDigest(digest) };
    expect(givesRs(general)).toBe(false);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.bigInt({ min: 0n, max: (1n << 48n) - 1n }),
        fc.integer({ min: 0, max: 207 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.constantFrom('compact64' as const, 'full65' as const),
        (hash, nonceAnchor, nonceBitmap, deadline, encoding) => {
          const request = { account, actionHash: hash, nonceAnchor, nonceBitmap, deadline };
          const fast = signPermitNow(context, native, request, encoding);
          expect(fast).toEqual(signPermitNow(context, general, request, encoding));
          expect(fast).toEqual(signPermitNow(context, signer, request, encoding));
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    ['bit index 208', { nonceBitmap: 208 }, /^nonce_bitmap_index: invalid value 208; allowed: 0 to 207$/],
    [
      'anchor beyond uint48',
      { nonceAnchor: 1n << 48n },
      /^nonce_anchor: invalid value 281474976710656; allowed: uint48/,
    ],
    ['deadline beyond uint32', { deadline: 2 ** 32 }, /^deadline: invalid value 4294967296; allowed: uint32/],
    ['malformed account', { account: hexText('0x1234') }, /^VerifyWitness.account: invalid value "0x1234"/],
    [
      'malformed hash',
      { actionHash: hexText('0xabcd') },
      /^VerifyWitness.hash: invalid value "0xabcd"; allowed: 0x-prefixed hex of 32 bytes/,
    ],
  ])('refuses %s before signing', async (_label, change, message) => {
    await expect(signPermit(context, signer, { ...base, ...change })).rejects.toThrow(message);
  });

  it('keeps the private key out of the signer object', () => {
    const text = JSON.stringify(signer) + Object.values(signer).join(' ');
    expect(text).not.toContain(SIGNER_KEY.slice(2));
    expect(JSON.parse(JSON.stringify(signer))).toEqual({ address: signer.address });
  });
});
