import { ManualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { ProtectedMarket } from '../../../src/engine/protection/protectedMarket.js';
import type { ProtectedPosition } from '../../../src/engine/protection/protectionLegs.js';
import { ProtectionKeeper, type TpslVenue } from '../../../src/engine/protection/protectionKeeper.js';
import type { TpslOrder } from '../../../src/engine/orders/tpslOrder.js';
import type { TpslOrderRequest } from '../../../src/venue/rest/tpslClient.js';
import type { TpslOrderRecord } from '../../../src/venue/schemas/restTpsl.js';
import type { TpslStatus } from '../../../src/venue/schemas/tpslNames.js';
import { VenueError } from '../../../src/venue/venueError.js';

/** The venue's TP/SL book as the keeper meets it: place, cancel (ACCEPTED only), the whole list. */
export class FakeTpslVenue implements TpslVenue {
  readonly records: TpslOrderRecord[] = [];
  refuse: string | undefined;
  placed = 0;
  cancels: string[] = [];
  /** Reads of the whole list. */
  lists = 0;
  /** The `sinceMs` of each list read. */
  readonly sinces: (number | undefined)[] = [];

  place(order: TpslOrderRequest): Promise<{ order_id: string }> {
    if (this.refuse !== undefined)
      return Promise.reject(new VenueError({ httpStatus: 400, rawBody: JSON.stringify({ message: this.refuse }) }));
    const id = `tpsl-v${++this.placed}`;
    this.records.push({
      order_id: id,
      market_id: String(order.marketId),
      side: order.side,
      size: order.size,
      stop_type: order.stopType,
      stop_price: order.stopPrice,
      status: 'TPSL_ORDER_STATUS_ACCEPTED',
    });
    return Promise.resolve({ order_id: id });
  }

  /** How many of the next cancels fail (the request lost: nothing cancelled). */
  failCancels = 0;

  cancel(venueId: string): Promise<unknown> {
    this.cancels.push(venueId);
    if (this.failCancels > 0) {
      this.failCancels--;
      return Promise.reject(new VenueError({ httpStatus: 503, rawBody: '{"message":"unavailable"}' }));
    }
    const r = this.records.find((x) => x.order_id === venueId);
    if (r?.status === 'TPSL_ORDER_STATUS_ACCEPTED') this.set(venueId, 'TPSL_ORDER_STATUS_CANCELLED');
    return Promise.resolve({ success: true });
  }

  listAll(sinceMs?: number): Promise<readonly TpslOrderRecord[]> {
    this.lists++;
    this.sinces.push(sinceMs);
    return Promise.resolve(this.records.map((r) => ({ ...r })));
  }

  set(venueId: string, status: TpslStatus, extra: Partial<TpslOrderRecord> = {}): void {
    const i = this.records.findIndex((x) => x.order_id === venueId);
    this.records[i] = { ...this.records[i], status, ...extra } as TpslOrderRecord;
  }

  active(): TpslOrderRecord[] {
    return this.records.filter(
      (r) => r.status === 'TPSL_ORDER_STATUS_ACCEPTED' || r.status === 'TPSL_ORDER_STATUS_TRIGGERED',
    );
  }
}

/**
 * A keeper on the fake venue, in manual time; its protections are `mm`'s stop-loss of 50 bps on
 * market 1 (with `takeProfitBps`) until `setProtections` changes them, as a strategy's intents do.
 */
export function setup(options: { takeProfitBps?: number; restored?: TpslOrder[] } = {}) {
  const venue = new FakeTpslVenue();
  const clock = new ManualClock();
  const written: TpslOrder[] = [];
  const closes: string[] = [];
  let position: ProtectedPosition | undefined;
  let mark = '64000';
  let protections: readonly ProtectedMarket[] = [
    { strategy: 'mm', marketId: 1, spec: { stopLossBps: 50, takeProfitBps: options.takeProfitBps, trigger: 'mark' } },
  ];
  const keeper = new ProtectionKeeper({
    venue,
    store: { write: (o) => written.push(o) },
    restored: options.restored ?? [],
    protections: () => protections,
    position: () => position,
    stepPrice: () => '0.1',
    watchedPrice: () => mark,
    closePosition: (p, order) => {
      closes.push(`${p.strategy}:${order.id}`);
      position = undefined;
      return Promise.resolve();
    },
    clock,
    log: silentLogger,
    venueReadEveryMs: 2000,
  });
  return {
    venue,
    keeper,
    clock,
    written,
    closes,
    setPosition: (p: ProtectedPosition | undefined) => (position = p),
    setMark: (m: string) => (mark = m),
    setProtections: (p: readonly ProtectedMarket[]) => (protections = p),
  };
}

export const long = (size: string, entry = '64000'): ProtectedPosition => ({ side: 'buy', size, avgEntryPrice: entry });
