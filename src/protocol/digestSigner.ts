import { secp256k1 } from '@noble/curves/secp256k1';
import { addressOfPrivateKey } from './privateKeys.js';
import type { Address } from '../core/address.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { hexBytes, toHex } from './abiWords.js';
import { parseHexSignature, type Signature } from './signature.js';

/**
 * The small signer interface the protocol needs: an address and "sign this 32-byte digest".
 * A faster secp256k1 implementation plugs in here. Keys stay inside the signer's closure: the
 * object has no property that holds them, so it cannot leak through logging or JSON.
 */
export interface DigestSigner {
  readonly address: Address;
  /**
   * True for a signer whose answer does not depend on the digest (a replay's placeholder, whose
   * permits no one recovers): a permit's digest is not worked out for it, and it is handed none.
   */
  readonly ignoresDigest?: boolean;
  signDigest(digest: Uint8Array): Signature | Promise<Signature>;
}

/** A signer that answers synchronously (the in-process key signers). */
export interface SyncDigestSigner extends DigestSigner {
  signDigest(digest: Uint8Array): Signature;
}

/** A signature as libsecp256k1 gives it: the 64 bytes r ‖ s and the recovery bit. */
export interface SignatureRs {
  readonly rs: Uint8Array;
  readonly yParity: 0 | 1;
}

/**
 * A synchronous signer that can also answer with its signature's bytes (`signDigestRs`, the
 * same signature as `signDigest`): a permit is encoded from them directly, with no scalars
 * turned into bigints and back on every order's way out.
 */
export interface RsDigestSigner extends SyncDigestSigner {
  signDigestRs(digest: Uint8Array): SignatureRs;
}

export function givesRs(signer: DigestSigner): signer is RsDigestSigner {
  return typeof (signer as Partial<RsDigestSigner>).signDigestRs === 'function';
}

/** What a viem local account offers: `sign({ hash })` returning 65-byte hex. */
export interface ViemStyleAccount {
  readonly address: Address;
  sign(args: { hash: `0x${string}` }): Promise<`0x${string}`>;
}

export type SignerLike = DigestSigner | ViemStyleAccount;

/** Accepts our signer or a viem local account. */
export function toDigestSigner(signer: SignerLike): DigestSigner {
  if ('signDigest' in signer) return signer;
  return {
    address: signer.address,
    signDigest: async (digest) => parseHexSignature(await signer.sign({ hash: toHex(digest) }), 'signature'),
  };
}

/**
 * A signer over a raw private key using @noble/curves directly (RFC 6979 deterministic nonces,
 * low-s), the same primitive viem uses, without viem's per-call encoding overhead.
 */
export function privateKeySigner(privateKey: `0x${string}`): SyncDigestSigner {
  const key = hexBytes(privateKey, 32, 'private key');
  if (!secp256k1.utils.isValidPrivateKey(key)) {
    throw new InvalidValueError('private key', '(hidden)', 'a 32-byte secp256k1 private key in 1 .. n-1');
  }
  const address = addressOfPrivateKey(privateKey);
  return Object.freeze({
    address,
    signDigest(digest: Uint8Array): Signature {
      const sig = secp256k1.sign(digest, key, { lowS: true });
      return { r: sig.r, s: sig.s, yParity: sig.recovery === 1 ? 1 : 0 };
    },
    toJSON: () => ({ address }),
  });
}
