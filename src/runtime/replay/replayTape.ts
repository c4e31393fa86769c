import type { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { addDecimals, multiplyDecimals, negateDecimal } from '../../core/decimal.js';
import type { Engine } from '../../engine/engine.js';
import { BookedEquity } from '../../engine/ledger/bookedEquity.js';
import type { ReplayFill, ReplayReport } from './replayReport.js';

type Series = ReplayReport['series'];
type Totals = ReplayReport['totals'];

/**
 * What a replay shows over time, read from the engine as it runs: every fill it booked (its
 * `fills$`), the orders the venue accepted (`placed` order events), and samples of equity (valued as
 * the live bot's: balance + unrealisedPnl), each market's position (the ledger's)
 * and mark (the engine's market view). The numbers are the engine's; the tape only records them.
 */
export class ReplayTape {
  private readonly equity: { t: number; value: string }[] = [];
  private readonly position: { t: number; marketId: number; size: string }[] = [];
  private readonly price: { t: number; marketId: number; mark: string }[] = [];
  private readonly fills: ReplayFill[] = [];
  private orders = 0;
  private volume = '0';
  /** Equity as the ledger books it, in fixed point (`BookedEquity`), and its peak and deepest fall so far. */
  private readonly booked: BookedEquity;
  private peak: bigint | undefined;
  private maxDrawdown = 0n;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly clock: Clock,
    private readonly markets: readonly number[],
    balance: string,
  ) {
    this.booked = new BookedEquity(balance);
    this.subscriptions.push(
      engine.fills$.subscribe((fill) => {
        this.fills.push({
          t: clock.now(),
          marketId: fill.marketId,
          side: fill.side,
          price: fill.price,
          size: fill.size,
          fee: fill.fee,
          liquidity: fill.liquidity === 'MAKER' ? 'maker' : 'taker',
        });
        this.volume = addDecimals(this.volume, multiplyDecimals(fill.price, fill.size));
        this.judgeDrawdown(this.equityNow());
      }),
      engine.orderEvents$.subscribe((event) => {
        if (event.type === 'placed') this.orders++;
      }),
    );
  }

  /** One sample of every series at the clock's time. */
  sample(): void {
    const t = this.clock.now();
    const value = this.equityNow();
    this.equity.push({ t, value: this.booked.text(value) });
    this.judgeDrawdown(value);
    const positions = this.engine.ledger.accountPositions();
    for (const marketId of this.markets) {
      const held = positions.get(marketId);
      const size = held === undefined ? '0' : held.side === 'buy' ? held.size : negateDecimal(held.size);
      this.position.push({ t, marketId, size });
      const mark = this.engine.markOf(marketId);
      if (mark !== undefined) this.price.push({ t, marketId, mark });
    }
  }

  /** The totals now (the ledger's figures at the current marks) and every series so far. */
  finish(): { readonly totals: Totals; readonly series: Series } {
    for (const s of this.subscriptions) s.unsubscribe();
    const pnl = this.engine.ledger.accountPnl();
    return {
      totals: {
        orders: this.orders,
        fills: this.fills.length,
        volume: this.volume,
        fees: pnl.fees,
        realisedPnl: pnl.realisedPnl,
        unrealisedPnl: pnl.unrealisedPnl,
        netPnl: pnl.netPnl,
        maxDrawdown: this.booked.text(this.maxDrawdown),
      },
      series: { equity: this.equity, position: this.position, price: this.price, fills: this.fills },
    };
  }

  /**
   * Equity as the live bot values it (accountValuation.ts), on the balance the ledger books
   * (`BookedEquity`): the replay's simulator moves the balance by fills and fees only, and the
   * booked one does not lag a fill until the balance frame. Until every market has a mark, the
   * marked ones count (an unmarked one at its entry), as the report's totals do.
   */
  private equityNow(): bigint {
    return this.booked.units(this.engine.ledger);
  }

  /** The largest fall of equity from its highest point so far. */
  private judgeDrawdown(value: bigint): void {
    if (this.peak === undefined || value > this.peak) this.peak = value;
    const drawdown = this.peak - value;
    if (drawdown > this.maxDrawdown) this.maxDrawdown = drawdown;
  }
}
