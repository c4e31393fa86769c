import { addDecimals, negateDecimal } from '../core/decimal.js';
import type { PnlSnapshot } from './guards/killSwitch.js';

/**
 * The session's PnL for the kill switch: realized = balance now − balance at start, unrealized =
 * the sum of the venue's latest unrealized PnL per market. Undefined until both balances are known.
 */
export class SessionPnl {
  private startBalance: string | undefined;
  private balance: string | undefined;
  private readonly unrealized = new Map<number, string>();

  /** The first balance seen is the session's starting point. */
  onBalance(balance: string): void {
    this.startBalance ??= balance;
    this.balance = balance;
  }

  onUnrealized(marketId: number, pnl: string): void {
    this.unrealized.set(marketId, pnl);
  }

  snapshot(): PnlSnapshot | undefined {
    if (this.balance === undefined || this.startBalance === undefined) return undefined;
    let unrealized = '0';
    for (const u of this.unrealized.values()) unrealized = addDecimals(unrealized, u);
    return { realized: addDecimals(this.balance, negateDecimal(this.startBalance)), unrealized };
  }
}
