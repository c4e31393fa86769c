import { catchError, EMPTY, Subscription } from 'rxjs';
import { isDecimalString } from '../../core/decimal.js';
import type { VenueWsClient } from '../../venue/ws/venueWsClient.js';

/** Where the extras are read from (the venue WebSocket client). */
export type VenueExtrasSource = Pick<VenueWsClient, 'channel'>;

export interface PositionExtras {
  readonly liquidationPrice?: string;
  readonly unrealizedPnl?: string;
}

/** Fill times remembered, newest kept: a fill's view is built as it arrives, so a few suffice. */
const FILL_TIMES_KEPT = 4_096;

/**
 * Venue fields the engine's tracker does not keep, read from the same private channels for the
 * strategies' views: each fill's match time (nanoseconds on the wire), and each position's
 * liquidation price and unrealized PnL where the venue reports them. `follow` must be called
 * before the engine attaches to the channels: a frame then reaches this first, so the fill's time
 * is known when the engine's fill event builds the strategy's view of it.
 */
export class VenueExtras {
  private readonly fillTimes = new Map<string, number>();
  private readonly positions = new Map<number, PositionExtras>();

  follow(source: VenueExtrasSource): Subscription {
    const subscriptions = new Subscription();
    // A failing feed is the engine's to report; here it just ends.
    subscriptions.add(
      source
        .channel('fills')
        .pipe(catchError(() => EMPTY))
        .subscribe((m) => this.onFill(m.fill.id, m.fill.time)),
    );
    subscriptions.add(
      source
        .channel('positions')
        .pipe(catchError(() => EMPTY))
        .subscribe((m) => {
          for (const record of m.positions) this.onPosition(record.market_id, record);
        }),
    );
    return subscriptions;
  }

  onFill(id: string, timeNs: bigint): void {
    this.fillTimes.set(id, Number(timeNs / 1_000_000n));
    if (this.fillTimes.size > FILL_TIMES_KEPT) {
      const oldest = this.fillTimes.keys().next().value;
      if (oldest !== undefined) this.fillTimes.delete(oldest);
    }
  }

  /** A position record's loose fields (a record without one leaves the last value; flat clears both). */
  onPosition(marketId: number, record: Record<string, unknown>): void {
    const size = record['size'];
    if (typeof size === 'string' && /^-?0(\.0+)?$/.test(size)) {
      this.positions.delete(marketId);
      return;
    }
    const before = this.positions.get(marketId) ?? {};
    const liquidation = record['liquidation_price'];
    const unrealized = record['unrealized_pnl'];
    this.positions.set(marketId, {
      ...before,
      ...(isDecimalString(liquidation) ? { liquidationPrice: liquidation } : {}),
      ...(isDecimalString(unrealized) ? { unrealizedPnl: unrealized } : {}),
    });
  }

  /** Unix ms of a fill the venue reported on the fills channel. */
  fillTimeMs(id: string): number | undefined {
    return this.fillTimes.get(id);
  }

  position(marketId: number): PositionExtras | undefined {
    return this.positions.get(marketId);
  }
}
