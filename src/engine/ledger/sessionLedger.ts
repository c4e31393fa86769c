import type { PnlSnapshot } from '../guards/killSwitch.js';
import type { PositionView } from '../tracking/accountState.js';
import type { Side } from '../intents/intents.js';
import { PnlLedger, type MarkOf, type PnlFill, type PositionValue } from './pnlLedger.js';
import type { PnlView } from './pnlView.js';

export type { MarkOf } from './pnlLedger.js';

/** A fill as the ledger books it: the strategy whose order produced it, absent for an order not ours. */
export interface AttributedFill extends PnlFill {
  readonly strategy?: string;
}

/** A position held when the session began. */
export interface OpeningPosition {
  readonly marketId: number;
  readonly side: Side;
  readonly size: string;
  readonly avgEntryPrice?: string;
}

/** One strategy's share of the ledger, as its budget (positions, kill switch) and its views read it. */
export interface StrategyBook {
  pnl(): PnlView;
  /** What its kill switch judges (`PnlLedger.loss`). */
  loss(): PnlSnapshot | undefined;
  /** Its net position per market from its own fills (absolute size and a side). */
  positions(): ReadonlyMap<number, PositionView>;
}

/**
 * The one ledger of this session's fills and their PnL, valued by average entry as the venue
 * values them (pnlLedger.ts), exact at the venue's 18 decimals. Every
 * fill the engine counts (once, by the tracker's fill ledger) is booked here for the account and
 * for the strategy whose order produced it; a fill of an order this process did not place is
 * booked for the account and kept apart as unattributed, never dropped. The account starts from
 * the positions held when the session began (at their entry price, or the mark when the venue gave
 * none); a strategy starts flat. Open positions are valued at the engine's marks. Fills and fees
 * only: funding payments move the balance, not this ledger. It keeps the balance the session
 * started from, so a view can reconcile realisedPnl − fees with the balance's change.
 */
export class SessionLedger {
  private readonly account = new PnlLedger();
  private readonly unattributedFills = new PnlLedger();
  private readonly strategies = new Map<string, PnlLedger>();
  private unattributedCount = 0;
  private seeded = false;
  private opening: string | undefined;

  constructor(private readonly markOf: MarkOf) {}

  /**
   * The account's opening positions and balance (USDC, the venue's, read with them); only the
   * first call counts (a reconnect is not a new session).
   */
  seed(positions: readonly OpeningPosition[], balance?: string): void {
    if (this.seeded) return;
    this.seeded = true;
    this.opening = balance;
    for (const p of positions) {
      const entry = p.avgEntryPrice ?? this.markOf(p.marketId);
      if (entry !== undefined) this.account.seed(p.marketId, p.side, p.size, entry);
    }
  }

  /** Books one counted fill (call once per fill id). */
  onFill(fill: AttributedFill): void {
    this.account.onFill(fill);
    if (fill.strategy === undefined) {
      this.unattributedCount += 1;
      this.unattributedFills.onFill(fill);
    } else this.ledgerOf(fill.strategy).onFill(fill);
  }

  /** The account's PnL: every fill of the session, from the opening positions. */
  accountPnl(): PnlView {
    return this.account.view(this.markOf);
  }

  /** What the account's kill switch judges: the account's PnL net of fees, in wei (`PnlLedger.loss`). */
  accountLoss(): PnlSnapshot | undefined {
    return this.account.loss(this.markOf);
  }

  /** The account's `netPnl` in wei (`PnlLedger.netWei`): what the replay's equity adds to its opening balance. */
  accountNetWei(): bigint {
    return this.account.netWei(this.markOf);
  }

  /** One strategy's PnL on its own fills (flat and zero before its first fill). */
  strategyPnl(strategy: string): PnlView {
    return (this.strategies.get(strategy) ?? EMPTY).view(this.markOf);
  }

  /** Fills of orders this process did not place (another process on the account, a lost order). */
  unattributed(): { readonly fills: number; readonly pnl: PnlView } {
    return { fills: this.unattributedCount, pnl: this.unattributedFills.view(this.markOf) };
  }

  /** The balance the session started from; undefined before the seed or when the venue reported none. */
  openingBalance(): string | undefined {
    return this.opening;
  }

  /** The account's open positions, each valued at the engine's mark: the rows every view shows. */
  accountPositionValues(): PositionValue[] {
    return this.account.positionValues(this.markOf);
  }

  accountPositions(): ReadonlyMap<number, PositionView> {
    return this.account.positions();
  }

  strategyPositions(strategy: string): ReadonlyMap<number, PositionView> {
    return this.strategies.get(strategy)?.positions() ?? new Map<number, PositionView>();
  }

  /** The strategies with fills so far. */
  strategyNames(): readonly string[] {
    return [...this.strategies.keys()];
  }

  /** Whether the account holds a position in the market (a mark change there moves its PnL). */
  holds(marketId: number): boolean {
    return this.account.holds(marketId);
  }

  /** A strategy's share, read live. */
  bookOf(strategy: string): StrategyBook {
    return {
      pnl: () => this.strategyPnl(strategy),
      loss: () => (this.strategies.get(strategy) ?? EMPTY).loss(this.markOf),
      positions: () => this.strategyPositions(strategy),
    };
  }

  private ledgerOf(strategy: string): PnlLedger {
    let ledger = this.strategies.get(strategy);
    if (ledger === undefined) {
      ledger = new PnlLedger();
      this.strategies.set(strategy, ledger);
    }
    return ledger;
  }
}

const EMPTY = new PnlLedger();
