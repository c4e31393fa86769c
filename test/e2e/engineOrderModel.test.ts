import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancel, cancelAll, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { OrderEvent } from '../../src/engine/orders/orderEvent.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { readAllOpenOrders } from '../../src/venue/rest/readAllOpenOrders.js';
import { fundedAccount } from './support/simAccount.js';
import { engineOnSim } from './support/engineOnSim.js';
import { attachEngineToSimWs } from './support/engineOnSimWs.js';

/**
 * The engine's one order model on the simulator: a placement waiting on the rate limit is the
 * engine's order (queued, listed, cancellable with nothing sent), and what the views show when
 * each stream emits (the strategy guide's ordering guarantees).
 */
const sell = (id: string, price = '66000', size = '0.001') =>
  placeLimit({ intentId: id, strategy: 'mm', marketId: 1, side: 'sell', size, price, postOnly: true });
const takeBuy = (id: string, size: string) =>
  placeLimit({ intentId: id, strategy: 'taker', marketId: 1, side: 'buy', size, price: '66000', timeInForce: 'IOC' });

describe('the engine order model on the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('lists a placement waiting on the rate limit as queued, and a cancel takes it out of the queue with nothing sent', async () => {
    const maker = await fundedAccount(sim);
    // One action a second: the second placement, right after the first, must wait.
    const engine = engineOnSim(maker, { guards: { actionsPerSecond: 1, actionBurst: 1 } });
    await engine.start();
    const ws = await attachEngineToSimWs(sim, maker, engine);
    const events: OrderEvent[] = [];
    engine.orderEvents$.subscribe((e) => events.push(e));
    const outcomes: IntentOutcome[] = [];
    const stateAtOutcome = new Map<string, string | undefined>();
    engine.outcomes$.subscribe((o) => {
      outcomes.push(o);
      stateAtOutcome.set(o.intentId, engine.tracker.order(o.intentId)?.state);
    });

    expect((await engine.execute(sell('q-1'))).type).toBe('accepted');
    const waiting = engine.execute(sell('q-2', '66100'));
    expect(engine.tracker.openOrders({ strategy: 'mm' }).map((o) => [o.intentId, o.state])).toEqual([
      ['q-1', 'open'],
      ['q-2', 'queued'],
    ]);
    expect(engine.queuedOrders()).toEqual(new Map([['mm', 1]]));

    const cancelled = await engine.execute(
      cancel({ intentId: 'c-2', strategy: 'mm', marketId: 1, target: { intentId: 'q-2' } }),
    );
    expect(cancelled.type).toBe('accepted');
    const placement = await waiting;
    expect(placement.type === 'refused' && placement.refusal.rule).toBe('cancelled_queued');
    expect(engine.tracker.order('q-2')?.state).toBe('cancelled');
    expect(engine.queuedOrders()).toEqual(new Map());
    expect(
      events.filter((e) => e.intentId === 'q-2').map((e) => [e.type, 'requested' in e ? e.requested : '']),
    ).toEqual([
      ['queued', ''],
      ['cancelled', true],
    ]);
    expect(events.filter((e) => e.intentId === 'q-1').map((e) => e.type)).toEqual(['queued', 'submitted', 'placed']);
    // The venue only ever saw the first placement.
    const open = await readAllOpenOrders(maker.rest, { account: maker.account, marketId: 1 });
    expect(open.orders).toHaveLength(1);
    expect(outcomes.map((o) => [o.intentId, o.type])).toEqual([
      ['q-1', 'accepted'],
      ['c-2', 'accepted'],
      ['q-2', 'refused'],
    ]);
    // Inside an outcome the order model already shows the answer: accepted and resting, or gone.
    expect(stateAtOutcome.get('q-1')).toBe('open');
    expect(stateAtOutcome.get('q-2')).toBe('cancelled');
    expect(engine.tracker.openOrders().map((o) => o.intentId)).toEqual(['q-1']);

    await engine.stop();
    await ws.close();
  });

  it("a cancel-all drops the market's queued placements at once, and cancelOrdersOf a strategy's, nothing sent for them", async () => {
    const maker = await fundedAccount(sim);
    const engine = engineOnSim(maker, { guards: { actionsPerSecond: 1, actionBurst: 1 } });
    await engine.start();
    const ws = await attachEngineToSimWs(sim, maker, engine);
    expect((await engine.execute(sell('a-1'))).type).toBe('accepted');
    const queued = [engine.execute(sell('a-2', '66100')), engine.execute(sell('a-3', '66200'))];
    const all = engine.execute(cancelAll({ intentId: 'ca', strategy: 'mm', marketId: 1 }));
    expect(engine.tracker.openOrders().map((o) => [o.intentId, o.state])).toEqual([['a-1', 'open']]);
    const outcomes = await Promise.all(queued);
    expect(outcomes.map((o) => o.type === 'refused' && o.refusal.rule)).toEqual([
      'cancelled_queued',
      'cancelled_queued',
    ]);
    expect((await all).type).toBe('accepted');
    await vi.waitFor(() => expect(engine.tracker.openOrders()).toEqual([]));

    const more = [engine.execute(sell('b-1', '66300')), engine.execute(sell('b-2', '66400'))];
    await engine.cancelOrdersOf('mm');
    expect((await Promise.all(more)).map((o) => o.type === 'refused' && o.refusal.rule)).toEqual([
      'cancelled_queued',
      'cancelled_queued',
    ]);
    const open = await readAllOpenOrders(maker.rest, { account: maker.account, marketId: 1 });
    expect(open.orders).toEqual([]);

    await engine.stop();
    await ws.close();
  });

  it("sends a strategy's placement only after its earlier cancels have their outcome (a requote never rests beside the old quotes)", async () => {
    const maker = await fundedAccount(sim);
    const engine = engineOnSim(maker);
    await engine.start();
    const ws = await attachEngineToSimWs(sim, maker, engine);
    const seen: string[] = [];
    engine.outcomes$.subscribe((o) => seen.push(`${o.intentId}:${o.type}`));
    engine.orderEvents$.subscribe((e) => seen.push(`${e.intentId}:${e.type}`));
    expect((await engine.execute(sell('r-1'))).type).toBe('accepted');
    seen.length = 0;
    const requote = [
      engine.execute(cancel({ intentId: 'rc-1', strategy: 'mm', marketId: 1, target: { intentId: 'r-1' } })),
      engine.execute(sell('r-2', '66100')),
    ];
    expect(engine.tracker.order('r-2')?.state).toBe('queued');
    await Promise.all(requote);
    expect(seen.indexOf('rc-1:accepted')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('rc-1:accepted')).toBeLessThan(seen.indexOf('r-2:submitted'));
    const open = await readAllOpenOrders(maker.rest, { account: maker.account, marketId: 1 });
    expect(open.orders).toHaveLength(1);

    await engine.stop();
    await ws.close();
  });

  it('inside a fills handler the filled order is no longer open; inside its order event the order already shows the fill', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    const engine = engineOnSim(maker);
    const other = engineOnSim(taker);
    await Promise.all([engine.start(), other.start()]);
    const ws = await attachEngineToSimWs(sim, maker, engine);
    const seenInFillHandler: string[][] = [];
    engine.fills$.subscribe(() => seenInFillHandler.push(engine.tracker.openOrders().map((o) => o.intentId)));
    const seenInEvent: [string, string | undefined, string | undefined][] = [];
    engine.orderEvents$.subscribe((e) => {
      const order = engine.tracker.order(e.intentId);
      seenInEvent.push([e.type, order?.state, order?.filledSize]);
    });

    expect((await engine.execute(sell('f-1'))).type).toBe('accepted');
    expect((await other.execute(takeBuy('t-1', '0.001'))).type).toBe('accepted');
    await vi.waitFor(() => expect(seenInFillHandler).toHaveLength(1));
    expect(seenInFillHandler).toEqual([[]]);
    const filled = seenInEvent.find(([type]) => type === 'filled');
    expect(filled?.[1]).toBe('filled');
    expect(Number(filled?.[2])).toBe(0.001);

    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });
});
