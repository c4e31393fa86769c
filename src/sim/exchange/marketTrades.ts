import { BoundedLog } from './boundedLog.js';
import type { ExchangeEvent } from './exchangeEvents.js';
import type { TradeRecord } from './exchangeRecords.js';

/**
 * Each market's latest public trades, from the same trade events the trades channel sends, for
 * GET /v1/markets/id/{id}/trade-history. Bounded: older trades are forgotten.
 */
export class MarketTrades {
  private readonly logs = new Map<number, BoundedLog<TradeRecord>>();

  constructor(private readonly retention: number) {}

  record(events: readonly ExchangeEvent[]): void {
    for (const event of events) {
      if (event.type !== 'trade') continue;
      let log = this.logs.get(event.market_id);
      if (log === undefined) {
        log = new BoundedLog<TradeRecord>(this.retention);
        this.logs.set(event.market_id, log);
      }
      log.push(event.trade);
    }
  }

  /** Newest first, at most `limit`. */
  recent(marketId: number, limit: number): TradeRecord[] {
    const log = this.logs.get(marketId);
    if (log === undefined) return [];
    const out: TradeRecord[] = [];
    for (const trade of log.newestFirst()) {
      if (out.length >= limit) break;
      out.push(trade);
    }
    return out;
  }
}
