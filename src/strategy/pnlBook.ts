import type { Observable, Subscription } from 'rxjs';
import { PnlLedger } from './pnlLedger.js';
import type { StrategyPnl } from './strategyContext.js';
import type { FillView, PnlView, StateSnapshot } from './strategyViews.js';

/**
 * The PnL strategies read (`ctx.pnl`): one ledger for every fill of the account in this session,
 * seeded with the positions held when it began (at their average entry price, or the mark when
 * the venue gave none), and one per strategy for its own fills. Valued at the engine's marks.
 */
export class PnlBook {
  private readonly session = new PnlLedger();
  private readonly own = new Map<string, PnlLedger>();

  constructor(
    private readonly state: StateSnapshot,
    /** A fill the ledgers could not take (not an exact decimal): reported, never thrown at the feed. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Seeds the opening positions of `markets`, then follows `fills`. */
  follow(fills: Observable<FillView>, markets: readonly number[]): Subscription {
    for (const marketId of markets) {
      const position = this.state.position(marketId);
      const entry = position?.avgEntryPrice ?? this.state.market(marketId)?.mark_price;
      if (position !== undefined && entry !== undefined)
        this.session.seed(marketId, position.side, position.size, entry);
    }
    return fills.subscribe((fill) => {
      try {
        this.session.onFill(fill);
        if (fill.strategy !== undefined) this.ledgerOf(fill.strategy).onFill(fill);
      } catch (error) {
        this.onError(error);
      }
    });
  }

  sessionView(): PnlView {
    return this.session.view(this.markOf);
  }

  ownView(strategy: string): PnlView {
    return this.ledgerOf(strategy).view(this.markOf);
  }

  /** The `ctx.pnl` of one strategy. */
  forStrategy(strategy: string): StrategyPnl {
    return Object.freeze({ session: () => this.sessionView(), own: () => this.ownView(strategy) });
  }

  private readonly markOf = (marketId: number): string | undefined => this.state.market(marketId)?.mark_price;

  private ledgerOf(strategy: string): PnlLedger {
    let ledger = this.own.get(strategy);
    if (ledger === undefined) {
      ledger = new PnlLedger();
      this.own.set(strategy, ledger);
    }
    return ledger;
  }
}
