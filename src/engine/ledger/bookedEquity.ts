import { fixedToDecimal, parseDecimal, pow10, rescale } from '../../core/decimal.js';
import { WAD_DECIMALS } from './averageEntry.js';
import type { SessionLedger } from './sessionLedger.js';

/**
 * Equity on the balance the ledger books: the opening balance plus realisedPnl − fees is the
 * balance where only fills move it (a replay's simulator), and equity on it adds unrealisedPnl
 * (`equityOf`), the marked positions' while a market has no mark yet; in all, the opening balance
 * plus the ledger's netPnl. Kept in fixed point, at the ledger's 18 decimals or the opening
 * balance's own when it has more, so a reader that judges it at every fill (the replay's drawdown)
 * compares bigints; `text` gives the decimal every view shows.
 */
export class BookedEquity {
  /** Decimal places of `units`. */
  readonly scale: number;
  private readonly opening: bigint;

  constructor(openingBalance: string) {
    const opening = parseDecimal(openingBalance, 'opening balance');
    this.scale = Math.max(WAD_DECIMALS, opening.scale);
    this.opening = rescale(opening, this.scale, 'opening balance');
  }

  /** The equity now, at `scale`, from the ledger's figures at its marks. */
  units(ledger: Pick<SessionLedger, 'accountNetWei'>): bigint {
    return this.opening + ledger.accountNetWei() * pow10(this.scale - WAD_DECIMALS);
  }

  /** An amount at `scale` as an exact, canonical decimal. */
  text(units: bigint): string {
    return fixedToDecimal(units, this.scale);
  }
}
