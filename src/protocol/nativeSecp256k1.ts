import { createRequire } from 'node:module';

/**
 * libsecp256k1 through the optional `secp256k1` package (prebuilt binaries from the npm
 * registry), loaded once. Absent or broken, callers fall back to @noble/curves: nothing depends
 * on a native build.
 */
export interface NativeSecp256k1 {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  /** Writes the key into `output` when given (33 or 65 bytes, as `compressed` asks) and returns it. */
  ecdsaRecover(
    signature: Uint8Array,
    recid: number,
    message: Uint8Array,
    compressed: boolean,
    output?: Uint8Array,
  ): Uint8Array;
  privateKeyVerify(privateKey: Uint8Array): boolean;
}

let native: NativeSecp256k1 | null | undefined;

export function loadNativeSecp256k1(): NativeSecp256k1 | null {
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

/**
 * The uncompressed public key (65 bytes) that signed `digest`, through libsecp256k1, or undefined
 * when the native binding is not loaded. The simulator recovers a signer for every request, so
 * this is its hot path.
 */
export function nativeRecoverPublicKey(digest: Uint8Array, rs64: Uint8Array, yParity: 0 | 1): Uint8Array | undefined {
  return loadNativeSecp256k1()?.ecdsaRecover(rs64, yParity, digest, false);
}
