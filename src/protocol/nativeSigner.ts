import { addressOfPrivateKey } from './privateKeys.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { hexBytes } from './abiWords.js';
import { privateKeySigner, type SignatureRs, type SyncDigestSigner } from './digestSigner.js';
import { signatureOfRs, type Signature } from './signature.js';
import { loadNativeSecp256k1 } from './nativeSecp256k1.js';

/** Whether signing (and recovery) run on native libsecp256k1 here. */
export function nativeSignerAvailable(): boolean {
  return loadNativeSecp256k1() !== null;
}

/**
 * The fastest available signer for a raw key: libsecp256k1 through the optional `secp256k1`
 * package (prebuilt binaries from the npm registry), with the same RFC 6979 deterministic, low-s
 * signatures as @noble/curves, several times faster; when the optional dependency is missing or
 * fails to load, the pure-JS signer, so nothing depends on a native build.
 */
export function fastPrivateKeySigner(privateKey: `0x${string}`): SyncDigestSigner {
  const lib = loadNativeSecp256k1();
  if (lib === null) return privateKeySigner(privateKey);
  const key = hexBytes(privateKey, 32, 'private key');
  if (!lib.privateKeyVerify(key)) {
    throw new InvalidValueError('private key', '(hidden)', 'a 32-byte secp256k1 private key in 1 .. n-1');
  }
  const address = addressOfPrivateKey(privateKey);
  return Object.freeze({
    address,
    signDigest(digest: Uint8Array): Signature {
      const { signature, recid } = lib.ecdsaSign(digest, key);
      // A fresh 64-byte r ‖ s per call: the permit's encoding copies it rather than the scalars.
      return signatureOfRs(signature, recid === 1 ? 1 : 0);
    },
    signDigestRs(digest: Uint8Array): SignatureRs {
      const { signature, recid } = lib.ecdsaSign(digest, key);
      return { rs: signature, yParity: recid === 1 ? 1 : 0 };
    },
    toJSON: () => ({ address, implementation: 'libsecp256k1' }),
  });
}
