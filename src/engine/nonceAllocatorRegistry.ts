import { sameAddress } from '../core/address.js';
import { PerpbotError } from '../core/perpbotError.js';
import { NonceAllocator, type NonceAllocatorOptions } from './nonceAllocator.js';
import type { NonceState } from './noncePair.js';

/**
 * One allocator per account: nonces are the account's (not the signer's), so every signer of an
 * account in this process must draw from the same allocator.
 */
export class NonceAllocatorRegistry {
  private readonly allocators = new Map<string, NonceAllocator>();

  /** Creates the account's allocator from its nonce-state read; refuses a second one. */
  open(account: string, nonceState: NonceState, options: NonceAllocatorOptions = {}): NonceAllocator {
    const key = account.toLowerCase();
    if (this.allocators.has(key)) {
      throw new PerpbotError(`a nonce allocator for ${account} is already open`, {
        code: 'NONCE_ALLOCATOR_EXISTS',
        details: { account },
        hints: ['use get() and resync() instead of opening a second allocator, which would hand out pairs twice'],
      });
    }
    const allocator = new NonceAllocator(account, nonceState, options);
    this.allocators.set(key, allocator);
    return allocator;
  }

  get(account: string): NonceAllocator | undefined {
    const allocator = this.allocators.get(account.toLowerCase());
    return allocator !== undefined && sameAddress(allocator.account, account) ? allocator : undefined;
  }

  accounts(): string[] {
    return [...this.allocators.values()].map((a) => a.account);
  }
}
