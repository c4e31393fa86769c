import { Subject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Intent } from '../../src/engine/intents/intents.js';
import { createIntentFactory } from '../../src/strategy/intentFactory.js';
import type { StrategyContext } from '../../src/strategy/strategyContext.js';
import type { BookView, MarkPrice, OpenOrderSnapshot, OpenOrderState } from '../../src/strategy/strategyViews.js';
import marketMaker, { type MarketMakerParams } from '../../strategies/marketMaker.js';

/**
 * The market maker against the engine's order model as `ctx.state.openOrders()` shows it: quotes
 * the engine still holds (queued on the rate limit, or in flight) are listed, marked, and a
 * requote cancels them by intent id like resting ones, so none is left behind to rest later.
 */
function quoting(stateOf: (intentId: string) => OpenOrderState | undefined) {
  const marks = new Subject<MarkPrice>();
  const books = new Subject<BookView>();
  const emitted: Intent[] = [];
  const params: MarketMakerParams = {
    size: '0.001',
    spread_bps: 20,
    requote_bps: 5,
    max_inventory: '0.01',
    skew_bps: 10,
    post_only: true,
  };
  const live = (): OpenOrderSnapshot[] =>
    emitted.flatMap((i) => {
      const state = i.kind === 'placeLimit' ? stateOf(i.intentId) : undefined;
      if (i.kind !== 'placeLimit' || state === undefined) return [];
      const cancelled = emitted.some(
        (c) => c.kind === 'cancel' && 'intentId' in c.target && c.target.intentId === i.intentId,
      );
      if (cancelled) return [];
      return [
        {
          orderId: state === 'open' ? `0x${i.intentId}` : '',
          intentId: i.intentId,
          strategy: 'mm',
          marketId: 1,
          side: i.side,
          price: i.price,
          size: i.size,
          filledSize: '0',
          state,
        },
      ];
    });
  const ctx = {
    name: 'mm',
    params,
    markets: [1],
    streams: {
      mark: (): Observable<MarkPrice> => marks,
      book: (): Observable<BookView> => books,
      fills: () => new Subject(),
    },
    state: {
      position: () => undefined,
      market: () => ({ config: { step_price: '1' } }),
      openOrders: () => live(),
    },
    outcomes: new Subject(),
    intents: createIntentFactory('mm', 'test'),
    log: { debug() {}, info() {}, warn() {}, error() {} },
  } as unknown as StrategyContext<MarketMakerParams>;
  marketMaker.run(ctx).subscribe((i) => emitted.push(i));
  const mark = (price: string) => marks.next({ marketId: 1, markPrice: price, blockNumber: 1 });
  return { emitted, mark, live, books };
}

describe('market maker with quotes the engine still holds', () => {
  it.each(['queued', 'in_flight'] as const)(
    'cancels %s quotes on a requote instead of leaving them to rest',
    (state) => {
      const q = quoting(() => state);
      q.books.next({
        marketId: 1,
        bids: [['64900', '1']].map(([price, quantity]) => ({ price: price!, quantity: quantity! })),
        asks: [],
      });
      q.mark('65000');
      q.mark('65100');
      q.mark('65200');
      const kinds = q.emitted.map((i) => i.kind);
      expect(kinds).toEqual([
        'placeLimit',
        'placeLimit',
        'cancel',
        'cancel',
        'placeLimit',
        'placeLimit',
        'cancel',
        'cancel',
        'placeLimit',
        'placeLimit',
      ]);
      // Never more than its two quotes live at once, however long the engine holds them.
      expect(q.live()).toHaveLength(2);
      const places = q.emitted.filter((i) => i.kind === 'placeLimit').map((i) => i.intentId);
      const cancelled = q.emitted.flatMap((i) =>
        i.kind === 'cancel' && 'intentId' in i.target ? [i.target.intentId] : [],
      );
      expect(cancelled).toEqual(places.slice(0, 4));
    },
  );
});
