import { map, mergeMap, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addDecimals, defineStrategy, isRefused, type Intent, type OrderEvent } from '../../src/strategy/index.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DEFAULT_RISK } from '../../src/testing/kitOptions.js';
import { strategyTest } from '../../src/testing/index.js';

/** Emits whatever intents the test hands it, once the market is ready. */
const scripted = (build: (ctx: Parameters<Parameters<typeof defineStrategy>[0]['run']>[0]) => Intent[]) =>
  defineStrategy({ name: 'scripted', description: 'test', params: z.object({}), run: (ctx) => of(...build(ctx)) });

/** The book, then the mark: the strategy's first intents meet the scripted book. */
async function ready<T extends Awaited<ReturnType<typeof strategyTest>>>(t: T): Promise<T> {
  await t.book(1, {
    bids: [
      ['99', '1'],
      ['98', '2'],
    ],
    asks: [
      ['100.1', '0.5'],
      ['100.3', '2'],
    ],
  });
  await t.mark(1, '100');
  return t;
}

/** Events from the venue's side of an order's life (its admission, queued and submitted, left out). */
const afterAdmission = (e: OrderEvent): boolean => e.type !== 'queued' && e.type !== 'submitted';

describe('the strategy test kit', () => {
  it("refuses what the engine's pre-trade checks refuse: off-grid price or size, below the minimum, reduce-only with nothing to reduce", async () => {
    const t = await ready(
      await strategyTest(
        scripted((ctx) => [
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '99.05' }),
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.0105', price: '99' }),
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.0001', price: '99', sizeRounding: 'up' }),
          ctx.intents.placeMarket({ marketId: 1, side: 'sell', size: '0.01', reduceOnly: true }),
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '99.07', priceRounding: 'down' }),
        ]),
        { marketConfig: { 1: { minSize: '0.002' } } },
      ),
    );
    expect(t.outcomes.map((o) => (isRefused(o) ? o.refusal.rule : o.type))).toEqual([
      'price_tick',
      'size_step',
      'min_order_size',
      'reduce_only',
      'accepted',
    ]);
    // The engine's view (ctx.state) and the venue's book agree: one order, snapped down to 99.
    expect(t.state.openOrders(1)).toEqual([expect.objectContaining({ price: '99', size: '0.01' })]);
    expect(t.venueOrders(1)).toEqual([expect.objectContaining({ price_ticks: 990, size_steps: 10 })]);
    expect(t.errors).toEqual([]);
  });

  it("fills a market order on the simulator's book level by level; a post-only order that would cross fails with the venue's code", async () => {
    const t = await ready(
      await strategyTest(
        scripted((ctx) => [
          ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: '1' }),
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '100.3', postOnly: true }),
        ]),
      ),
    );
    // 0.5 at 100.1 and 0.5 at 100.3, inside the engine's 50 bps slippage bound around the mark of 100.
    expect(t.state.position(1)).toMatchObject({ signedSize: '1', avgEntryPrice: '100.2', markPrice: '100' });
    expect(t.outcomes[1]).toMatchObject({
      type: 'failed',
      error: { code: 'VENUE_POST_ONLY_WOULD_CROSS', kind: 'PostOnlyWouldCross' },
    });
    // Each order is queued, then submitted (admitted and sent), before the venue's answer.
    expect(t.orderEvents.filter((e) => e.type === 'queued' || e.type === 'submitted')).toHaveLength(4);
    expect(t.orderEvents.filter(afterAdmission).map((e) => e.type)).toEqual([
      'placed',
      'partially_filled',
      'filled',
      'refused',
    ]);
    // Taker fees at the simulator's 5 bps of 50.05 + 50.15.
    expect(t.pnl()).toMatchObject({ fees: '0.0501', unrealisedPnl: '-0.2' });
  });

  it('fills a resting order when a trade or the book reaches it, at its price, as maker, behind the orders ahead of it', async () => {
    const t = await ready(
      await strategyTest(
        scripted((ctx) => [
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.5', price: '99.5', postOnly: true }),
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.5', price: '99', postOnly: true }),
          ctx.intents.placeLimit({ marketId: 1, side: 'sell', size: '0.2', price: '103' }),
        ]),
      ),
    );
    // A sell reaching 99.5 fills the best bid (ours); one reaching only 100 prints without touching it.
    await t.trade(1, { price: '99.5', size: '0.1', aggressorSide: 'sell' });
    await t.trade(1, { price: '100', size: '5', aggressorSide: 'sell' });
    // A sell down to 99 fills what is left at 99.5, then the scripted bid at 99 that came first, then ours.
    await t.trade(1, { price: '99', size: '1.5', aggressorSide: 'sell' });
    expect(t.state.openOrders(1).map((o) => `${o.side}:${o.price}:${o.filledSize}`)).toEqual([
      'buy:99:0.1',
      'sell:103:0',
    ]);
    // A scripted bid at 103.5 reaches the resting sell: it trades at 103.
    await t.book(1, { bids: [['103.5', '1']], asks: [['104', '1']] });
    expect(t.orderEvents.filter(afterAdmission).map((e) => `${e.side}:${e.price}:${e.type}:${e.filledSize}`)).toEqual([
      'buy:99.5:placed:0',
      'buy:99:placed:0',
      'sell:103:placed:0',
      'buy:99.5:partially_filled:0.1',
      'buy:99.5:filled:0.5',
      'buy:99:partially_filled:0.1',
      'sell:103:filled:0.2',
    ]);
    expect(t.state.position(1)).toMatchObject({ signedSize: '0.4' });
  });

  it('keeps storage across a simulated restart and gives the strategy its own fills with their venue time', async () => {
    const placer = defineStrategy({
      name: 'placer',
      description: 'one order, counts fills',
      params: z.object({}),
      run: (ctx) => {
        let count = ctx.storage?.load('fills', z.number()) ?? 0;
        ctx.streams.fills().subscribe((f) => {
          ctx.storage?.save('fills', ++count);
          ctx.log.info({ timeMs: f.timeMs, strategy: f.strategy }, 'fill seen');
        });
        return of(ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '98.5' }));
      },
    });
    const first = await ready(await strategyTest(placer, { startMs: 5_000 }));
    await first.advance(1_000);
    await first.fill(first.intents[0]!.intentId);
    expect(first.storage.get('fills')).toBe(1);
    expect(first.logs.find((l) => l.msg === 'fill seen')?.obj).toEqual({ timeMs: 6_000, strategy: 'placer' });
    const second = await ready(await strategyTest(placer, { storage: first.storage }));
    await second.fill(second.intents[0]!.intentId);
    expect(second.storage.get('fills')).toBe(2);
  });
});

describe('the kit runs the real engine: rate limits, queues and budgets', () => {
  it("takes its default limits from the default profile's risk block", () => {
    const profile = parse(readFileSync(new URL('../../config/default.yaml', import.meta.url), 'utf8')) as {
      risk: unknown;
    };
    expect(DEFAULT_RISK).toEqual(profile.risk);
  });

  /**
   * Requotes on every mark from what `ctx.state.openOrders()` lists: cancel those, place a bid and
   * an ask. Places still waiting on the rate limit are listed too (queued), so it cancels them.
   */
  const requoter = defineStrategy({
    name: 'requoter',
    description: 'cancels what it sees, quotes both sides',
    params: z.object({}),
    run: (ctx) =>
      ctx.streams.mark(1).pipe(
        map((m) => m.markPrice),
        mergeMap((mid) => [
          ...ctx.state.openOrders(1).map((o) =>
            ctx.intents.cancel({
              marketId: 1,
              target: o.intentId === undefined ? { orderId: o.orderId } : { intentId: o.intentId },
            }),
          ),
          ctx.intents.placeLimit({
            marketId: 1,
            side: 'buy',
            size: '0.01',
            price: addDecimals(mid, '-1'),
            postOnly: true,
          }),
          ctx.intents.placeLimit({
            marketId: 1,
            side: 'sell',
            size: '0.01',
            price: addDecimals(mid, '1'),
            postOnly: true,
          }),
        ]),
      ),
  });

  it('an intent over max_actions_per_second waits in virtual time, listed as queued; a requote cancels it unsent and never leaks', async () => {
    const t = await strategyTest(requoter, { risk: { max_actions_per_second: 2 } });
    await t.book(1, { bids: [['90', '1']], asks: [['110', '1']] });
    const start = t.time.now();
    let mostResting = 0;
    let sawQueued = false;
    for (const mark of ['100', '100.5', '101', '101.5']) {
      await t.mark(1, mark);
      sawQueued ||= t.state.openOrders(1).some((o) => o.state === 'queued');
      await t.advance(100);
      mostResting = Math.max(mostResting, t.venueOrders(1).length);
    }
    await t.advance(10_000);
    mostResting = Math.max(mostResting, t.venueOrders(1).length);
    // The places waited their turn: seconds after they were emitted, and visible while they waited.
    expect(sawQueued).toBe(true);
    const places = t.outcomes.filter((o) => o.kind === 'placeLimit');
    expect(Math.max(...places.map((o) => o.atMs)) - start).toBeGreaterThanOrEqual(2_000);
    // Quotes the next requote replaced while they waited went nowhere: refused cancelled_queued, nothing sent.
    expect(places.some((o) => isRefused(o) && o.refusal.rule === 'cancelled_queued')).toBe(true);
    expect(t.orderEvents.some((e) => e.type === 'cancelled' && e.filledSize === '0')).toBe(true);
    // Each requote means two resting orders, and never more rest.
    expect(mostResting).toBeLessThanOrEqual(2);
    expect(t.venueOrders(1)).toHaveLength(2);
    expect(t.state.openOrders(1)).toHaveLength(2);
  });

  it('latencyMs delays every request and answer in virtual time: an order is answered a round trip later', async () => {
    const t = await strategyTest(
      scripted((ctx) => [ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '95' })]),
      { latencyMs: 40 },
    );
    await t.book(1, { bids: [['99', '1']], asks: [['100.1', '1']] });
    // The mark's frame itself takes 40 ms to arrive; then the request 40 ms there, the answer 40 ms back.
    await t.mark(1, '100');
    const start = t.time.now();
    await t.advance(79);
    expect(t.outcomes).toHaveLength(0);
    await t.advance(200);
    expect(t.outcomes).toEqual([expect.objectContaining({ type: 'accepted' })]);
    expect(t.outcomes[0]!.atMs - start).toBeGreaterThanOrEqual(120);
  });

  // The kit showed the budget counting a placement twice while it was in flight; one admission counts it once.
  it("refuses over the strategy's budget with the engine's rule, and only over it", async () => {
    const t = await ready(
      await strategyTest(
        scripted((ctx) =>
          ['97', '96', '95'].map((price) => ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price })),
        ),
        { budget: { max_open_orders: 2 } },
      ),
    );
    await t.advance(2_000);
    const byIntent = new Map(t.outcomes.map((o) => [o.intentId, isRefused(o) ? o.refusal.rule : o.type]));
    expect(t.intents.map((i) => byIntent.get(i.intentId))).toEqual(['accepted', 'accepted', 'max_open_orders']);
  });
});
