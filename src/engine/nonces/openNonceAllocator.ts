import type { Address } from '../../core/address.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { NonceConfig } from '../config/engineConfig.js';
import { NonceAllocator } from './nonceAllocator.js';
import { parseNonceState, type NoncePair } from './noncePair.js';

export interface NonceAllocatorSource {
  readonly rest: Pick<RestClient, 'nonceState'>;
  readonly account: Address;
  /** This process's share of the bits (default: all of them). */
  readonly slots?: NonceConfig | undefined;
  /** The highest pair any earlier run handed out (the journal's): allocation resumes above it. */
  readonly restoredHighWater?: NoncePair | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The one way a nonce allocator is built, for the engine and for the commands that sign outside
 * it (cancel-all, setup): over a fresh nonce-state read, above the journal's high-water mark, so
 * no pair any run handed out is handed out again, a crashed one's included.
 */
export async function openNonceAllocator(source: NonceAllocatorSource): Promise<NonceAllocator> {
  const { rest, account, signal } = source;
  const state = parseNonceState(await rest.nonceState(account, signal === undefined ? undefined : { signal }));
  return new NonceAllocator(account, state, {
    ...(source.slots === undefined ? {} : { slots: source.slots }),
    ...(source.restoredHighWater === undefined ? {} : { restoredHighWater: source.restoredHighWater }),
  });
}
