import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3';
import { createKeccak, type IHasher } from 'hash-wasm';

/**
 * keccak-256 for the signing fast path. Three implementations, the first that loads is used, all
 * giving identical digests (tested against @noble/hashes):
 *
 * - WebAssembly (`hash-wasm`), one hasher reused for every digest. A call into WebAssembly is a
 *   plain function call for V8, where the native addon's is an N-API crossing per step and a
 *   `Napi::Buffer` per digest: between two oracle frames, when nothing of it is in the caches, the
 *   first digest took 34 µs through the addon and 10 µs through WebAssembly on the 2-core VM
 *   (8 MB touched between calls; warm 2.1 and 1.4 µs).
 * - the native `keccak` package (prebuilt binaries), for a Node without WebAssembly (`--jitless`),
 *   its sponge driven directly with one state reused.
 * - the pure-JS @noble/hashes, always there.
 *
 * JS never interleaves two calls, so one hasher or state serves every digest: each call starts
 * with its `init`.
 */
type Digest = (data: Uint8Array) => Uint8Array;

interface NativeKeccakState {
  initialize(rate: number, capacity: number): void;
  /** Any byte view: the addon reads it through N-API's buffer info, which takes every Uint8Array. */
  absorb(data: Uint8Array): void;
  squeeze(length: number): Buffer;
}

const EMPTY_DIGEST = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

function answersEmptyDigest(digest: Digest): boolean {
  return Buffer.from(digest(new Uint8Array(0))).toString('hex') === EMPTY_DIGEST;
}

async function loadWasm(): Promise<Digest | null> {
  try {
    const hasher: IHasher = await createKeccak(256);
    // `digest('binary')` copies the 32 bytes out of the module's memory: the digest is the caller's.
    const digest: Digest = (data) => hasher.init().update(data).digest('binary');
    return answersEmptyDigest(digest) ? digest : null;
  } catch {
    return null;
  }
}

/** The native addon's keccak-256, or null when the addon does not load (exported for its test). */
export function loadNativeKeccak(): Digest | null {
  try {
    const require = createRequire(import.meta.url);
    // The addon the package's `keccak/bindings` entry loads, found the way that entry finds it.
    const bindings = require.resolve('keccak/bindings');
    const loadAddon = createRequire(bindings)('node-gyp-build') as (dir: string) => new () => NativeKeccakState;
    const State = loadAddon(dirname(bindings));
    const state = new State();
    // rate 1088, capacity 512, the original Keccak padding the sponge applies itself. The output is
    // handed out as a plain Uint8Array view, whose slice copies as a Uint8Array's does (a Buffer's would not).
    const digest: Digest = (data) => {
      state.initialize(1088, 512);
      state.absorb(data);
      const out = state.squeeze(32);
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    };
    return answersEmptyDigest(digest) ? digest : null;
  } catch {
    return null;
  }
}

const wasm = await loadWasm();
const native = wasm === null ? loadNativeKeccak() : null;

export const keccakImplementation: 'wasm' | 'native' | 'noble' =
  wasm !== null ? 'wasm' : native !== null ? 'native' : 'noble';

export const keccak256: Digest = wasm ?? native ?? keccak_256;
