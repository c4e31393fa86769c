import type { NonceAllocator } from './nonceAllocator.js';
import type { NoncePair } from './noncePair.js';

/**
 * The nonce stage: a free pair at once when there is one (the common case: no microtask hop
 * between the checks and the socket), otherwise a promise of the next one. An aborted signal goes
 * through `allocate()`, which refuses it.
 */
export function nonceFor(allocator: NonceAllocator, signal?: AbortSignal): NoncePair | Promise<NoncePair> {
  const free = signal?.aborted === true ? undefined : allocator.tryAllocate();
  return free ?? allocator.allocate(signal);
}
