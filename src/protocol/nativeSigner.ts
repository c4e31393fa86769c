import { createRequire } from 'node:module';
import { privateKeyToAddress } from 'viem/accounts';
import { InvalidValueError } from '../core/invalidValueError.js';
import { hexBytes } from './abiWords.js';
import { privateKeySigner, type SyncDigestSigner } from './digestSigner.js';
import type { Signature } from './signature.js';

/**
 * libsecp256k1 through the optional `secp256k1` package (prebuilt binaries from the npm
 * registry): the same RFC 6979 deterministic, low-s signatures as @noble/curves, several times
 * faster. When the optional dependency is missing or fails to load, signing falls back to the
 * pure-JS signer, so nothing depends on a native build.
 */
interface NativeSecp256k1 {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  privateKeyVerify(privateKey: Uint8Array): boolean;
}

let native: NativeSecp256k1 | null | undefined;

function loadNative(): NativeSecp256k1 | null {
  if (native !== undefined) return native;
  try {
    const require = createRequire(import.meta.url);
    // The pure-JS build of this package is slower than noble: use it only when native loaded.
    const loaded = require('secp256k1/bindings') as NativeSecp256k1;
    native = typeof loaded.ecdsaSign === 'function' ? loaded : null;
  } catch {
    native = null;
  }
  return native;
}

export function nativeSignerAvailable(): boolean {
  return loadNative() !== null;
}

function bytesToBigint(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`);
}

/** The fastest available signer for a raw key: native libsecp256k1, else @noble/curves. */
export function fastPrivateKeySigner(privateKey: `0x${string}`): SyncDigestSigner {
  const lib = loadNative();
  if (lib === null) return privateKeySigner(privateKey);
  const key = hexBytes(privateKey, 32, 'private key');
  if (!lib.privateKeyVerify(key)) {
    throw new InvalidValueError('private key', '(hidden)', 'a 32-byte secp256k1 private key in 1 .. n-1');
  }
  const address = privateKeyToAddress(privateKey);
  return Object.freeze({
    address,
    signDigest(digest: Uint8Array): Signature {
      const { signature, recid } = lib.ecdsaSign(digest, key);
      return { r: bytesToBigint(signature.subarray(0, 32)), s: bytesToBigint(signature.subarray(32, 64)), yParity: recid === 1 ? 1 : 0 };
    },
    toJSON: () => ({ address, implementation: 'libsecp256k1' }),
  });
}
