import { combineLatest, concat, defer, EMPTY, from, map, mergeMap, NEVER, of, take, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineStrategy,
  type BookView,
  type Intent,
  type MarkPrice,
  type StrategyStatus,
} from '../../src/strategy/index.js';
import { strategyTest } from '../../src/testing/index.js';

/** A strategy that records what run() sees at once when it subscribes. */
function firstSight() {
  const seen: { mark?: MarkPrice; book?: BookView; trading?: string }[] = [];
  const definition = defineStrategy({
    name: 'first-sight',
    description: 'records its first emission',
    params: z.object({}),
    run: (ctx) =>
      defer(() => {
        const entry: (typeof seen)[number] = {};
        combineLatest([ctx.streams.mark(1), ctx.streams.book(1)])
          .pipe(take(1))
          .subscribe(([mark, book]) => Object.assign(entry, { mark, book }));
        ctx.streams
          .tradingState()
          .pipe(take(1))
          .subscribe((s) => (entry.trading = s.mode));
        seen.push(entry);
        return NEVER;
      }),
  });
  return { seen, definition };
}

describe('strategy lifecycle', () => {
  it('starts run() only once its market has a mark and a book and the engine trades; run sees them on its first emission', async () => {
    const { seen, definition } = firstSight();
    const t = await strategyTest(definition);
    await t.disconnect('private feeds reconnecting');
    // Sent while the connection is down: lost, as on the venue.
    await t.book(1, { bids: [['64990', '1']], asks: [['65010', '1']] });
    await t.mark(1, '65000');
    expect(t.status).toBe('waiting');
    expect(seen).toEqual([]);
    // Back: the book starts again from its snapshot, the engine reconciles and trades; the mark comes with the next block.
    await t.reconnect();
    expect(t.status).toBe('waiting');
    await t.mark(1, '65001');
    expect(t.status).toBe('running');
    const levels = (side: readonly { price: string; quantity: string }[] | undefined) =>
      side?.map((l) => [l.price, l.quantity]);
    expect(seen.map((s) => [s.mark?.markPrice, levels(s.book?.bids), levels(s.book?.asks), s.trading])).toEqual([
      ['65001', [['64990', '1']], [['65010', '1']], 'trading'],
    ]);
  });

  it('logs what a waiting strategy still lacks, on the strategy clock', async () => {
    const t = await strategyTest(firstSight().definition);
    await t.advance(10_000);
    expect(t.logs.find((l) => l.msg === 'strategy waits for its markets before it runs')?.obj).toEqual({
      waitingFor: ['mark of market 1'],
    });
  });

  it('a ready signal of its own replaces the default wait', async () => {
    const definition = defineStrategy({
      name: 'timed-start',
      description: 'starts after 5 s whatever the market',
      params: z.object({}),
      ready: (ctx) => ctx.clock.timer(5_000),
      run: (ctx) => of(ctx.intents.cancelAll({ marketId: 1 })),
    });
    const t = await strategyTest(definition);
    await t.advance(4_999);
    expect(t.intents).toHaveLength(0);
    await t.advance(1);
    expect(t.intentsOf('cancelAll')).toHaveLength(1);
  });

  it('timers on ctx.clock run on virtual time: an hourly job runs 24 times in a virtual day', async () => {
    const definition = defineStrategy({
      name: 'hourly',
      description: 'cancels everything every hour',
      params: z.object({}),
      run: (ctx) => ctx.clock.interval(3_600_000).pipe(map(() => ctx.intents.cancelAll({ marketId: 1 }))),
    });
    // On the wall clock a day would outlast the test's timeout: reaching the count is the proof.
    const t = await strategyTest(definition, { waitUntilReady: false });
    await t.advance(24 * 3_600_000);
    expect(t.intentsOf('cancelAll')).toHaveLength(24);
    expect(t.intents.length).toBe(24);
  });

  it("onStop's final intents run before the strategy stops: it flattens its position", async () => {
    const definition = defineStrategy({
      name: 'flatten',
      description: 'buys once, closes on stop',
      params: z.object({}),
      run: (ctx) => of(ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: '0.01' })),
      onStop: (ctx) => (ctx.state.position(1) === undefined ? [] : [ctx.intents.closePosition({ marketId: 1 })]),
    });
    const t = await strategyTest(definition);
    await t.book(1, { bids: [['99.9', '1']], asks: [['100.1', '1']] });
    await t.mark(1, '100');
    expect(t.state.position(1)).toMatchObject({ signedSize: '0.01', avgEntryPrice: '100.1' });
    await t.stop();
    expect(t.intents.map((i) => i.kind)).toEqual(['placeMarket', 'closePosition']);
    expect(t.outcomes.map((o) => o.type)).toEqual(['accepted', 'accepted']);
    expect(t.state.position(1)).toBeUndefined();
    expect(t.venue.runtime.exchange.position(t.account, 1).size).toBe('0');
    expect(t.status).toBe('stopped');
    expect(t.logs.find((l) => l.msg === 'final intents of the strategy sent')?.obj).toMatchObject({
      sent: 1,
      settled: 1,
      timedOut: false,
    });
  });

  // The kit on the real engine showed it: the closePosition fill was attributed to no strategy.
  it("the closing fill of onStop's closePosition counts in the strategy's PnL", async () => {
    const definition = defineStrategy({
      name: 'flatten',
      description: 'buys once, closes on stop',
      params: z.object({}),
      run: (ctx) => of(ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: '0.01' })),
      onStop: (ctx) => (ctx.state.position(1) === undefined ? [] : [ctx.intents.closePosition({ marketId: 1 })]),
    });
    const t = await strategyTest(definition);
    await t.book(1, { bids: [['99.9', '1']], asks: [['100.1', '1']] });
    await t.mark(1, '100');
    await t.stop();
    // Bought at 100.1, sold at 99.9.
    expect(t.pnl()).toMatchObject({ realized: '-0.002' });
  });

  it('final intents may be an Observable; the wait for their outcomes ends at the stop timeout', async () => {
    const definition = defineStrategy({
      name: 'slow-stop',
      description: 'two final intents, one answered after the stop timeout',
      params: z.object({}),
      run: () => NEVER as Observable<Intent>,
      onStop: (ctx) =>
        concat(
          of(ctx.intents.cancelAll({ marketId: 1 })),
          ctx.clock.timer(1_000).pipe(mergeMap(() => from([ctx.intents.setLeverage({ marketId: 1, leverage: 3 })]))),
        ),
    });
    const t = await strategyTest(definition, { waitUntilReady: false, stopTimeoutMs: 5_000 });
    const before = t.time.now();
    // After the cancel went out, the venue takes a minute to answer: the leverage change outlives the timeout.
    t.time.schedule(() => t.faults({ latencyMs: 60_000 }), 500);
    await t.stop();
    expect(t.intents.map((i) => i.kind)).toEqual(['cancelAll', 'setLeverage']);
    expect(t.logs.find((l) => l.msg === 'final intents of the strategy sent')?.obj).toMatchObject({
      sent: 2,
      settled: 1,
      timedOut: true,
      timeoutMs: 5_000,
    });
    expect(t.time.now() - before).toBeGreaterThanOrEqual(5_000);
    expect(t.status).toBe('stopped');
  });

  it('a strategy that declares itself done winds down and says so; the others keep running', async () => {
    const statuses: (StrategyStatus | undefined)[] = [];
    const definition = defineStrategy({
      name: 'one-shot',
      description: 'one order, then done',
      params: z.object({}),
      run: (ctx) =>
        concat(
          of(ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '90' })),
          ctx.orderEvents.pipe(
            take(1),
            mergeMap(() => {
              ctx.done('placed');
              return EMPTY;
            }),
          ),
        ),
      onStop: (ctx) =>
        ctx.state.openOrders(1).map((o) => ctx.intents.cancel({ marketId: 1, target: { intentId: o.intentId! } })),
    });
    const t = await strategyTest(definition);
    await t.mark(1, '100');
    await t.book(1, { bids: [['99', '1']], asks: [['101', '1']] });
    statuses.push(t.status);
    expect(t.status).toBe('done');
    expect(t.orderEvents.map((e) => e.type)).toEqual(['queued', 'submitted', 'placed', 'cancelled']);
    expect(t.logs.some((l) => l.msg === 'every strategy is done')).toBe(true);
    // The framework cancelled its order before onStop ran, so onStop found nothing left to cancel.
    expect(t.intents).toHaveLength(1);
    // Nothing runs after done: another book changes nothing.
    await t.book(1, { bids: [['99', '1']], asks: [['89', '1']] });
    expect(t.intents).toHaveLength(1);
  });
});
