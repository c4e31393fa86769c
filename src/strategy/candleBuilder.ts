import { addDecimals, compareDecimals } from '../core/decimal.js';
import type { Candle, TradeView } from './strategyViews.js';

type CandleValues = Pick<Candle, 'open' | 'high' | 'low' | 'close' | 'volume' | 'trades'>;

/**
 * One market's candles, interval by interval: trades go into the open interval, and closing it
 * gives its candle, or a flat one at the last close (volume 0) when nothing traded; nothing
 * before a first price is known. The clock that decides when an interval ends is the caller's.
 */
export class CandleBuilder {
  private current: { -readonly [K in keyof CandleValues]: CandleValues[K] } | undefined;
  private startMs: number;
  private lastClose: string | undefined;

  constructor(
    private readonly marketId: number,
    private readonly intervalMs: number,
    /** Start of the first interval. */
    startMs: number,
    /** The close before the first interval (a seed candle's), if known. */
    lastClose: string | undefined,
  ) {
    this.startMs = startMs;
    this.lastClose = lastClose;
  }

  /** When the open interval ends. */
  get endMs(): number {
    return this.startMs + this.intervalMs;
  }

  add(trade: TradeView): void {
    const current = this.current;
    if (current === undefined) {
      this.current = {
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: trade.size,
        trades: 1,
      };
      return;
    }
    if (compareDecimals(trade.price, current.high) > 0) current.high = trade.price;
    if (compareDecimals(trade.price, current.low) < 0) current.low = trade.price;
    current.close = trade.price;
    current.volume = addDecimals(current.volume, trade.size);
    current.trades += 1;
  }

  /** Ends the open interval and opens the next: the ended interval's candle, if a price is known. */
  close(): Candle | undefined {
    const values = this.current ?? (this.lastClose === undefined ? undefined : flatAt(this.lastClose));
    const candle =
      values === undefined
        ? undefined
        : { marketId: this.marketId, startMs: this.startMs, intervalMs: this.intervalMs, ...values };
    if (values !== undefined) this.lastClose = values.close;
    this.current = undefined;
    this.startMs += this.intervalMs;
    return candle;
  }
}

function flatAt(price: string): CandleValues {
  return { open: price, high: price, low: price, close: price, volume: '0', trades: 0 };
}
