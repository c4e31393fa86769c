import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastPrivateKeySigner, nativeSignerAvailable } from '../../src/protocol/nativeSigner.js';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { signatureOfRs } from '../../src/protocol/signature.js';
import { SIGNER_KEY } from './fixtures.js';

describe('fastPrivateKeySigner', () => {
  it('loads libsecp256k1 here (the optional dependency installs from the registry)', () => {
    expect(nativeSignerAvailable()).toBe(true);
  });

  it('signs exactly as the pure-JS signer (RFC 6979, low-s, same recovery bit)', () => {
    const fast = fastPrivateKeySigner(SIGNER_KEY);
    const reference = privateKeySigner(SIGNER_KEY);
    expect(fast.address).toBe(reference.address);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
        expect(fast.signDigest(digest)).toEqual(reference.signDigest(digest));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same signature as its bytes (signDigestRs), a fresh array each time', () => {
    const fast = fastPrivateKeySigner(SIGNER_KEY) as ReturnType<typeof fastPrivateKeySigner> & {
      signDigestRs(digest: Uint8Array): { rs: Uint8Array; yParity: 0 | 1 };
    };
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
        const { rs, yParity } = fast.signDigestRs(digest);
        expect(signatureOfRs(rs, yParity)).toEqual(fast.signDigest(digest));
        expect(fast.signDigestRs(digest).rs).not.toBe(rs);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses an invalid key without echoing it', () => {
    const zero = `0x${'00'.repeat(32)}` as const;
    expect(() => fastPrivateKeySigner(zero)).toThrow(/private key: invalid value "\(hidden\)"/);
    expect(JSON.stringify(fastPrivateKeySigner(SIGNER_KEY))).not.toContain(SIGNER_KEY.slice(2));
  });
});
