import { addDecimals, isDecimalString, negateDecimal } from '../../core/decimal.js';
import type { PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { PnlSnapshot } from '../guards/killSwitch.js';

/**
 * The session's PnL for the kill switch, measured on equity so that moving money between pools
 * is neutral: realized = (cross balance + every isolated margin balance) now − the same sum at
 * start; unrealized = the sum of the venue's latest unrealized PnL per market. An isolated-margin
 * add lowers the cross balance and raises the market's isolated balance by the same amount, and a
 * switch back to cross returns it: neither is a loss. Undefined until a balance is seen.
 *
 * Isolated balances come from position records (REST reconciliation and the positions channel);
 * feed them before the first balance, so the starting equity includes what was already isolated.
 */
export class SessionPnl {
  private startEquity: string | undefined;
  private balance: string | undefined;
  private readonly isolated = new Map<number, string>();
  private readonly unrealized = new Map<number, string>();

  /** The first balance seen (with the isolated balances known by then) is the session's start. */
  onBalance(balance: string): void {
    this.balance = balance;
    this.startEquity ??= this.equity();
  }

  onUnrealized(marketId: number, pnl: string): void {
    this.unrealized.set(marketId, pnl);
  }

  /**
   * Isolated margin and unrealized PnL from position records. A record without a field leaves the
   * market's last value (an update may carry only what changed); a market missing from a snapshot
   * keeps its value too, because a flat market can still hold isolated margin.
   */
  onPositions(records: readonly PositionRecord[]): void {
    for (const record of records) {
      if (record.isolated_usdc_balance !== undefined) this.isolated.set(record.market_id, record.isolated_usdc_balance);
      // Not a named field of the channel (venue-facts lists it on the REST position): kept when present.
      const u = (record as Record<string, unknown>)['unrealized_pnl'];
      if (isDecimalString(u)) this.unrealized.set(record.market_id, u);
    }
  }

  snapshot(): PnlSnapshot | undefined {
    if (this.startEquity === undefined) return undefined;
    let unrealized = '0';
    for (const u of this.unrealized.values()) unrealized = addDecimals(unrealized, u);
    return { realized: addDecimals(this.equity(), negateDecimal(this.startEquity)), unrealized };
  }

  /** Cross balance plus every isolated balance; only called once a balance is known. */
  private equity(): string {
    let equity = this.balance ?? '0';
    for (const balance of this.isolated.values()) equity = addDecimals(equity, balance);
    return equity;
  }
}
