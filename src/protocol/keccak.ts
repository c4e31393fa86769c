import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3';

/**
 * keccak-256 for the signing fast path. Uses the optional native `keccak` package (prebuilt
 * binaries from the npm registry) when it loads, about four times faster on small inputs than
 * the pure-JS @noble/hashes, which is the fallback. Both give identical digests (tested).
 *
 * The native sponge is driven directly, one state reused for every digest (each call starts with
 * `initialize`, and JS never interleaves two calls): the package's own `keccak('keccak256')`
 * wraps every digest in a fresh stream object, which cost more than the hashing itself.
 */
interface NativeKeccakState {
  initialize(rate: number, capacity: number): void;
  /** Any byte view: the addon reads it through N-API's buffer info, which takes every Uint8Array. */
  absorb(data: Uint8Array): void;
  squeeze(length: number): Buffer;
}

const EMPTY_DIGEST = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

function loadNative(): NativeKeccakState | null {
  try {
    const require = createRequire(import.meta.url);
    // The addon the package's `keccak/bindings` entry loads, found the way that entry finds it.
    const bindings = require.resolve('keccak/bindings');
    const loadAddon = createRequire(bindings)('node-gyp-build') as (dir: string) => new () => NativeKeccakState;
    const State = loadAddon(dirname(bindings));
    const state = new State();
    return digestWith(state, Buffer.alloc(0)).toString('hex') === EMPTY_DIGEST ? state : null;
  } catch {
    return null;
  }
}

/** keccak-256 (rate 1088, capacity 512, the original Keccak padding the sponge applies itself). */
function digestWith(state: NativeKeccakState, data: Uint8Array): Buffer {
  state.initialize(1088, 512);
  state.absorb(data);
  return state.squeeze(32);
}

const native = loadNative();

export const keccakImplementation: 'native' | 'noble' = native === null ? 'noble' : 'native';

export const keccak256: (data: Uint8Array) => Uint8Array =
  native === null
    ? keccak_256
    : (data) => {
        // The input goes as it is (no Buffer view made per digest); the output is handed out as a
        // plain Uint8Array view, whose slice copies as a Uint8Array's does (a Buffer's would not).
        const out = digestWith(native, data);
        return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      };
