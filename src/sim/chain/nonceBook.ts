import type { Address } from '../../core/address.js';
import { addressKey } from '../../core/addressKey.js';
import { revertedWith, type SimRefusal } from '../simRefusal.js';

/** Highest bit index the contract accepts in an anchor; 208 and above revert. */
export const MAX_BITMAP_INDEX = 207;

export interface NonceState {
  readonly anchor: bigint;
  /** Bit set of consumed indexes in the current anchor. */
  readonly bitmap: bigint;
  /** One past the highest consumed index in the current anchor (0 when none). */
  readonly currentIndex: number;
}

const EMPTY: NonceState = Object.freeze({ anchor: 0n, bitmap: 0n, currentIndex: 0 });

/**
 * Anchor-plus-bitmap replay protection (spec "Nonces"), one state per account. A pair is first
 * checked (`check`), then consumed (`consume`) only once the action it authorises has gone
 * through: a reverted transaction consumes nothing on-chain.
 */
export class NonceBook {
  private readonly states = new Map<string, NonceState>();

  state(account: Address): NonceState {
    return this.states.get(addressKey(account)) ?? EMPTY;
  }

  /** The revert the contract would raise for (anchor, bit), or undefined when the pair is usable. */
  check(account: Address, anchor: bigint, bit: number, action: string): SimRefusal | undefined {
    const anchorError = this.checkAnchor(account, anchor, action);
    if (anchorError !== undefined) return anchorError;
    const indexError = checkIndex(bit, action);
    if (indexError !== undefined) return indexError;
    const state = this.state(account);
    if (anchor === state.anchor && (state.bitmap >> BigInt(bit)) & 1n) return revertedWith(action, 'NonceUsed');
    return undefined;
  }

  /** Only the anchor rule: current or current + 1. */
  checkAnchor(account: Address, anchor: bigint, action: string): SimRefusal | undefined {
    const current = this.state(account).anchor;
    return anchor === current || anchor === current + 1n ? undefined : revertedWith(action, 'InvalidNonceAnchor');
  }

  /** Consumes a pair that `check` accepted; moving to current + 1 starts a fresh bitmap there. */
  consume(account: Address, anchor: bigint, bit: number, action: string): void {
    const problem = this.check(account, anchor, bit, action);
    if (problem !== undefined) throw problem;
    const state = this.state(account);
    const base = anchor === state.anchor ? state : { anchor, bitmap: 0n, currentIndex: 0 };
    this.states.set(addressKey(account), {
      anchor,
      bitmap: base.bitmap | (1n << BigInt(bit)),
      currentIndex: Math.max(base.currentIndex, bit + 1),
    });
  }
}

export function checkIndex(bit: number, action: string): SimRefusal | undefined {
  return bit > MAX_BITMAP_INDEX ? revertedWith(action, `InvalidNonceIndex(${bit})`) : undefined;
}
