import { mergeMap, of, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, isRefused, type Intent } from '../../src/strategy/index.js';
import { strategyTest } from '../../src/testing/index.js';

/** Emits whatever intents the test hands it (through params), once the market is ready. */
const scripted = (build: (ctx: Parameters<Parameters<typeof defineStrategy>[0]['run']>[0]) => Intent[]) =>
  defineStrategy({ name: 'scripted', description: 'test', params: z.object({}), run: (ctx) => of(...build(ctx)) });

async function ready<T extends Awaited<ReturnType<typeof strategyTest>>>(t: T): Promise<T> {
  await t.mark(1, '100');
  await t.book(1, {
    bids: [
      ['99', '1'],
      ['98', '2'],
    ],
    asks: [
      ['101', '0.5'],
      ['102', '2'],
    ],
  });
  return t;
}

describe('the strategy test kit', () => {
  it('refuses what the engine would: off-grid price or size, below the minimum, reduce-only with nothing to reduce', async () => {
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
    expect(t.outcomes.map((o) => (isRefused(o) ? o.rejection.rule : o.type))).toEqual([
      'price_tick',
      'size_step',
      'min_order_size',
      'reduce_only',
      'accepted',
    ]);
    expect(t.exchange.openOrders(1)).toEqual([expect.objectContaining({ price: '99', size: '0.01' })]);
  });

  it('fills a market order against the book level by level, and a post-only order that would cross fails as on the venue', async () => {
    const t = await ready(
      await strategyTest(
        scripted((ctx) => [
          ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: '1' }),
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '101', postOnly: true }),
        ]),
      ),
    );
    expect(t.exchange.position(1)).toMatchObject({
      signedSize: '1',
      avgEntryPrice: '101.5',
      markPrice: '100',
      unrealizedPnl: '-1.5',
    });
    expect(t.outcomes[1]).toMatchObject({ type: 'failed', error: { kind: 'PostOnlyWouldCross' } });
    expect(t.orderEvents.map((e) => e.type)).toEqual(['placed', 'partially_filled', 'filled', 'rejected']);
    // Taker fees at 4 bps of 50.5 + 51.
    expect(t.pnl()).toMatchObject({ fees: '0.0406', unrealized: '-1.5' });
  });

  it('fills a resting order when a trade or the book reaches its price, at its price, as maker', async () => {
    const t = await ready(
      await strategyTest(
        scripted((ctx) => [
          ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.5', price: '99', postOnly: true }),
          ctx.intents.placeLimit({ marketId: 1, side: 'sell', size: '0.2', price: '103' }),
        ]),
      ),
    );
    await t.trade(1, { price: '99', size: '0.1', aggressorSide: 'sell' });
    await t.trade(1, { price: '99.5', size: '5', aggressorSide: 'sell' });
    await t.trade(1, { price: '99', size: '0.1', aggressorSide: 'buy' });
    expect(t.exchange.openOrders(1).find((o) => o.side === 'buy')?.filledSize).toBe('0.1');
    await t.book(1, { bids: [['104', '1']], asks: [['98.5', '0.3']] });
    expect(t.orderEvents.map((e) => `${e.side}:${e.type}:${e.filledSize}`)).toEqual([
      'buy:placed:0',
      'sell:placed:0',
      'buy:partially_filled:0.1',
      'buy:partially_filled:0.4',
      'sell:filled:0.2',
    ]);
  });

  it('answers with scripted outcomes first, and fills only on request with fill model none', async () => {
    const t = await strategyTest(
      defineStrategy({
        name: 'retry',
        description: 'places once per refusal',
        params: z.object({}),
        run: (ctx) =>
          ctx.streams.mark(1).pipe(
            take(1),
            mergeMap(() => of(ctx.intents.placeLimit({ marketId: 1, side: 'sell', size: '1', price: '105' }))),
          ),
      }),
      { fillModel: 'none' },
    );
    t.respondOnce({ refuse: 'max_open_orders', reason: 'budget full' });
    await ready(t);
    expect(t.outcomes[0]).toMatchObject({
      type: 'refused',
      rejection: { rule: 'max_open_orders', reason: 'budget full' },
    });
    t.respond((intent) => (intent.kind === 'placeLimit' ? 'accept' : undefined));
    await t.book(1, { bids: [['110', '1']], asks: [['111', '1']] });
    expect(t.exchange.openOrders(1)).toHaveLength(0);
  });

  it('keeps storage across a simulated restart and gives the strategy its own fills with their time', async () => {
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
        return of(ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '99' }));
      },
    });
    const first = await ready(await strategyTest(placer, { fillModel: 'none', startMs: 5_000 }));
    await first.advance(1_000);
    await first.fill(first.intents[0]!.intentId);
    expect(first.storage.get('fills')).toBe(1);
    expect(first.logs.find((l) => l.msg === 'fill seen')?.obj).toEqual({ timeMs: 6_000, strategy: 'placer' });
    const second = await ready(await strategyTest(placer, { fillModel: 'none', storage: first.storage }));
    await second.fill(second.intents[0]!.intentId);
    expect(second.storage.get('fills')).toBe(2);
  });
});
