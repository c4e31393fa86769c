import type { Address } from '../../core/address.js';

export interface Allowance {
  readonly operator: Address;
  /** Remaining budget in USD wei (18 decimals). */
  readonly budgetWei: bigint;
  /** Unix seconds. */
  readonly expiry: number;
}

/**
 * Operator-hub allowances granted by approve-single; JWT orders run against them and fills spend
 * the budget (venue-facts "Authentication extras").
 */
export class AllowanceBook {
  private readonly allowances = new Map<string, Allowance>();

  grant(account: Address, allowance: Allowance): void {
    this.allowances.set(account.toLowerCase(), allowance);
  }

  get(account: Address): Allowance | undefined {
    return this.allowances.get(account.toLowerCase());
  }

  /**
   * Usable means granted, not expired (expiry is exclusive) and, when the action can spend it
   * (an order: fills spend notional), with budget left. Other JWT actions (cancels, account
   * settings) trade nothing, so an exhausted budget does not block them.
   */
  usable(account: Address, nowSeconds: number, needsBudget = true): boolean {
    const allowance = this.get(account);
    return allowance !== undefined && nowSeconds < allowance.expiry && (!needsBudget || allowance.budgetWei > 0n);
  }

  /** Spends fill notional; the budget floors at zero (the fill already happened on-chain). */
  spend(account: Address, notionalWei: bigint): void {
    const allowance = this.get(account);
    if (allowance === undefined) return;
    const left = allowance.budgetWei - notionalWei;
    this.allowances.set(account.toLowerCase(), { ...allowance, budgetWei: left > 0n ? left : 0n });
  }
}
