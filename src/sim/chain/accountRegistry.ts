import type { Address } from '../../core/address.js';
import { addressKey } from '../../core/addressKey.js';

/**
 * Accounts become registered by their first collateral deposit, but the venue only sees them once
 * the deposit event is indexed: until `registrationLagMs` has passed, orders fail with the
 * not-registered error. The faucet pays each wallet once.
 */
export class AccountRegistry {
  private readonly depositedAt = new Map<string, number>();
  private readonly registeredAt = new Map<string, number>();

  constructor(private lagMs: number) {}

  get registrationLagMs(): number {
    return this.lagMs;
  }

  /** Applies to deposits made from now on; deposits already waiting keep their time. */
  setRegistrationLag(ms: number): void {
    this.lagMs = ms;
  }

  hasUsedFaucet(account: Address): boolean {
    return this.depositedAt.has(addressKey(account));
  }

  recordDeposit(account: Address, nowMs: number): void {
    const key = addressKey(account);
    if (!this.depositedAt.has(key)) this.depositedAt.set(key, nowMs);
    if (!this.registeredAt.has(key)) this.registeredAt.set(key, nowMs + this.lagMs);
  }

  /** Registers at once (test control). */
  registerNow(account: Address, nowMs: number): void {
    this.registeredAt.set(addressKey(account), nowMs);
  }

  isRegistered(account: Address, nowMs: number): boolean {
    const at = this.registeredAt.get(addressKey(account));
    return at !== undefined && nowMs >= at;
  }

  /** Has any on-chain state (deposited, indexed or not). */
  isKnown(account: Address): boolean {
    return this.registeredAt.has(addressKey(account));
  }
}
