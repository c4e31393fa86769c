import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Intent, QuoteIntent } from '../../src/engine/intents/intents.js';
import { createIntentFactory } from '../../src/strategy/intentFactory.js';
import type { StrategyContext } from '../../src/strategy/strategyContext.js';
import type { BookView, FillView, MarkPrice, TradingStateView } from '../../src/strategy/strategyViews.js';
import marketMaker, { marketMakerParams } from '../../strategies/marketMaker.js';

/** The market maker on hand-fed streams: what it states at each mark, fill and trading state. */
function quoting(params: Record<string, unknown> = {}) {
  const marks = new Subject<MarkPrice>();
  const books = new Subject<BookView>();
  const fills = new Subject<FillView>();
  const trading = new BehaviorSubject<TradingStateView>({ mode: 'trading', reasons: [], sinceMs: 0 });
  const emitted: Intent[] = [];
  const ctx = {
    name: 'mm',
    params: marketMakerParams.parse({ size: '0.001', spread_bps: 20, max_inventory: '0.01', ...params }),
    markets: [1],
    streams: {
      mark: (): Observable<MarkPrice> => marks,
      book: (): Observable<BookView> => books,
      fills: () => fills,
    },
    state: {
      position: () => undefined,
      marketConfig: () => ({ step_price: '1' }),
      openOrders: () => [],
    },
    tradingState: () => trading.value,
    outcomes: new Subject(),
    intents: createIntentFactory('mm', 'test'),
    log: { debug() {}, info() {}, warn() {}, error() {} },
  } as unknown as StrategyContext<never>;
  marketMaker.run(ctx).subscribe((i) => emitted.push(i));
  const mark = (price: string) => marks.next({ marketId: 1, markPrice: price, blockNumber: 1 });
  return { emitted, mark, books, fills, trading };
}

const targets = (emitted: Intent[]) => emitted.filter((i): i is QuoteIntent => i.kind === 'quote');

describe('market maker states its quotes as a quote target', () => {
  it('at every mark: a bid and an ask around it, within requote_bps kept by the engine, break-before-make', () => {
    const q = quoting({ requote_bps: 5 });
    q.mark('65000');
    q.mark('65010');
    expect(q.emitted.every((i) => i.kind === 'quote')).toBe(true);
    const [first, second] = targets(q.emitted);
    expect(first).toMatchObject({
      marketId: 1,
      tolerance: { bps: 5 },
      mode: 'break_before_make',
      orders: [
        { side: 'buy', price: '64935', priceRounding: 'down', size: '0.001', postOnly: true },
        { side: 'sell', price: '65065', priceRounding: 'up', size: '0.001', postOnly: true },
      ],
    });
    expect(second?.orders.map((o) => o.price)).toEqual(['64944.99', '65075.01']);
  });

  it('keeps a post-only quote a tick behind the opposite best price', () => {
    const q = quoting();
    // The book has left the mark: its best ask (64930) is below where the bid would go (64935).
    q.books.next({ marketId: 1, bids: [{ price: '64900', quantity: '1' }], asks: [{ price: '64930', quantity: '1' }] });
    q.mark('65000');
    expect(targets(q.emitted)[0]?.orders.map((o) => o.price)).toEqual(['64929', '65065']);
  });

  it('states it again after a fill of its own orders, not of another strategy', () => {
    const q = quoting();
    q.mark('65000');
    const fill = {
      marketId: 1,
      orderId: '0x1',
      side: 'buy',
      price: '64935',
      size: '0.001',
      fee: '0',
      liquidity: 'MAKER',
      timeMs: 1,
      id: 'f',
    } as const;
    q.fills.next({ ...fill, strategy: 'other' });
    expect(targets(q.emitted)).toHaveLength(1);
    q.fills.next({ ...fill, strategy: 'mm' });
    expect(targets(q.emitted)).toHaveLength(2);
  });

  it('states nothing while trading is degraded or halted, and again at the first mark after', () => {
    const q = quoting();
    q.trading.next({ mode: 'halted', reasons: ['kill switch tripped (drill)'], sinceMs: 1 });
    q.mark('65000');
    q.trading.next({ mode: 'degraded', reasons: ['private feeds down'], sinceMs: 2 });
    q.mark('65001');
    expect(q.emitted).toEqual([]);
    q.trading.next({ mode: 'trading', reasons: [], sinceMs: 3 });
    q.mark('65002');
    expect(targets(q.emitted)).toHaveLength(1);
  });
});
