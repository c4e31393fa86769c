import { filter, firstValueFrom, merge, NEVER, pairwise, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compareDecimals } from '../../src/core/decimal.js';
import { Engine } from '../../src/engine/engine.js';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { OrderState, TrackedFill } from '../../src/engine/tracking/orderTracker.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import type { VenueWsClient } from '../../src/venue/ws/venueWsClient.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';
import { engineOnSim } from './support/engineOnSim.js';
import { privateFeedsClient } from './support/engineOnSimWs.js';
import { venueSender } from '../../src/engine/sending/actionSender.js';

/** The maker's engine, following its orders, positions, fills and account over the venue's WebSocket. */
async function attachedToWs(
  sim: RunningSim,
  who: SimAccount,
  engine: Engine,
  options: { followReconnects?: boolean; connection?: boolean } = {},
): Promise<VenueWsClient> {
  const ws = privateFeedsClient(sim, who, engine);
  const fills = ws.channel('fills');
  engine.attach({
    orders: ws.channel('orders'),
    positions: ws.channel('positions'),
    // Every fill arrives twice, as after a reconnect overlap: the engine must count it once.
    fills: merge(fills, fills),
    account: ws.channel('account'),
    oracle: NEVER,
    // As the runtime wires it: a new authenticated connection after the first one.
    reconnected: options.followReconnects === true ? reconnects(ws) : NEVER,
    // The connection's states: degraded while down, a round of reconciliation when back.
    ...(options.connection === true ? { connection: ws.connectionState$ } : {}),
  });
  // The account channel is subscribed last and starts with a snapshot: once it is here, every
  // earlier subscription (fills has no snapshot) is live on the venue.
  await firstValueFrom(ws.channel('account'));
  return ws;
}

function reconnects(ws: VenueWsClient): Observable<unknown> {
  return ws.connectionState$.pipe(
    pairwise(),
    filter(
      ([before, now]) => now.status === 'authenticated' && now.connections > 1 && before.status !== 'authenticated',
    ),
  );
}

/** The distinct states an intent's order went through, in order, from `orders$`. */
function statesOf(engine: Engine): Map<string, OrderState[]> {
  const states = new Map<string, OrderState[]>();
  engine.orders$.subscribe((o) => {
    const seen = states.get(o.intentId) ?? [];
    if (seen.at(-1) !== o.state) seen.push(o.state);
    states.set(o.intentId, seen);
  });
  return states;
}

const sell = (id: string, size: string) =>
  placeLimit({ intentId: id, strategy: 'mm', marketId: 1, side: 'sell', size, price: '66000', postOnly: true });
const takeBuy = (id: string, size: string) =>
  placeLimit({ intentId: id, strategy: 'taker', marketId: 1, side: 'buy', size, price: '66000', timeInForce: 'IOC' });

const urlOf = (input: Parameters<typeof fetch>[0]): string => String(input instanceof Request ? input.url : input);

/**
 * A REST client to the simulator whose answers to `path`, once `hold()` was called, are held until
 * `release()`: `taken` resolves when the first is taken (the venue as it was at that moment).
 */
function heldAnswers(sim: RunningSim, path: string) {
  let holding = false;
  let taken!: () => void;
  const answerTaken = new Promise<void>((r) => (taken = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const rest = createRestClient({
    baseUrl: sim.restUrl,
    timeoutMs: 10_000,
    rateLimit: false,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (holding && urlOf(input).includes(path)) {
        taken();
        await released;
      }
      return response;
    },
  });
  return { rest, taken: answerTaken, release, hold: () => (holding = true) };
}

describe('engine order tracking from the venue feeds', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // No automatic blocks: no synthetic makers or takers, so the book holds only these orders.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('follows an order pending → open → partially filled → filled, with fills carrying the intent id, each counted once', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    const engine = engineOnSim(maker);
    const other = engineOnSim(taker);
    await Promise.all([engine.start(), other.start()]);
    const delivered = vi.spyOn(engine.tracker, 'onFill');
    const ws = await attachedToWs(sim, maker, engine);
    const states = statesOf(engine);
    const fills: TrackedFill[] = [];
    engine.fills$.subscribe((f) => fills.push(f));

    expect((await engine.execute(sell('m-1', '0.002'))).type).toBe('accepted');
    expect((await other.execute(takeBuy('t-1', '0.001'))).type).toBe('accepted');
    await vi.waitFor(() => expect(engine.tracker.order('m-1')?.state).toBe('partially_filled'));
    expect(compareDecimals(engine.tracker.order('m-1')?.filledSize ?? '', '0.001')).toBe(0);
    expect(fills.map((f) => [f.intentId, f.strategy, f.side, f.liquidity])).toEqual([['m-1', 'mm', 'sell', 'MAKER']]);
    expect(compareDecimals(fills[0]?.size ?? '', '0.001')).toBe(0);

    // REST reconciliation sees the same order again: still partially filled, not double counted.
    await engine.reconcile();
    expect(engine.tracker.order('m-1')?.state).toBe('partially_filled');
    expect(compareDecimals(engine.tracker.order('m-1')?.filledSize ?? '', '0.001')).toBe(0);

    expect((await other.execute(takeBuy('t-2', '0.001'))).type).toBe('accepted');
    await vi.waitFor(() => expect(engine.tracker.order('m-1')?.state).toBe('filled'));
    await vi.waitFor(() => expect(fills).toHaveLength(2));
    expect(delivered).toHaveBeenCalledTimes(4); // each fill delivered twice, reported once
    expect(new Set(fills.map((f) => f.id)).size).toBe(2);
    expect(fills.every((f) => f.intentId === 'm-1')).toBe(true);
    expect(states.get('m-1')).toEqual(['submitted', 'open', 'partially_filled', 'filled']);
    await vi.waitFor(() => expect(compareDecimals(engine.tracker.position(1)?.size ?? '0', '0.002')).toBe(0));
    expect(engine.tracker.position(1)?.side).toBe('sell');

    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });

  it('a reconciliation keeps open an order accepted while it read the venue (its read could not list it)', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    // The engine's reads: an open-orders answer, once taken, is held until the test lets it go.
    const { rest, taken, release, hold } = heldAnswers(sim, '/v1/orders/open');
    const engine = engineOnSim(maker, { rest });
    const other = engineOnSim(taker);
    await Promise.all([engine.start(), other.start()]);
    // Filled on the venue while the engine (following no feed) still holds it open.
    expect((await engine.execute(sell('m-before', '0.001'))).type).toBe('accepted');
    expect((await other.execute(takeBuy('t-before', '0.001'))).type).toBe('accepted');

    hold();
    const reconciled = engine.reconcile();
    await taken;
    expect((await engine.execute(sell('m-during', '0.001'))).type).toBe('accepted');
    release();
    await reconciled;
    // The read listed neither: the order accepted before it began has left the book (its history says filled),
    // the one accepted after it began is still resting.
    expect(engine.tracker.order('m-before')?.state).toBe('filled');
    expect(engine.tracker.order('m-during')?.state).toBe('open');
    expect((await maker.rest.openOrders({ account: maker.account, market_id: '1' })).orders).toHaveLength(1);
    await Promise.all([engine.stop(), other.stop()]);
  });

  it("a reconnect's round keeps open an order in flight at the loss that the venue accepted after the round read it", async () => {
    const [maker] = [await fundedAccount(sim)];
    // The round's reads: its open-orders answer is held once taken.
    const { rest, taken, release, hold } = heldAnswers(sim, '/v1/orders/open');
    // The placement reaches the venue only once the round has read the open orders.
    const sending = createRestClient({
      baseUrl: sim.restUrl,
      timeoutMs: 10_000,
      rateLimit: false,
      fetch: async (input, init) => {
        if (urlOf(input).includes('/v1/orders/place')) await taken;
        return fetch(input, init);
      },
    });
    const engine = engineOnSim(maker, { rest, sender: venueSender(sending) });
    await engine.start();
    const ws = await attachedToWs(sim, maker, engine, { connection: true });
    await vi.waitFor(() => expect(engine.conditions.state.mode).toBe('trading'));

    hold();
    const placing = engine.execute(sell('m-1', '0.001'));
    sim.controls.dropAccountWebSockets(maker.account);
    await taken;
    expect((await placing).type).toBe('accepted');
    release();
    await vi.waitFor(() => expect(engine.conditions.state.mode).toBe('trading'));
    expect(engine.tracker.order('m-1')?.state).toBe('open');
    expect((await maker.rest.openOrders({ account: maker.account, market_id: '1' })).orders).toHaveLength(1);
    await engine.stop();
    await ws.close();
  });

  it('a reconciliation keeps the position the feed reported while it read the venue', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    // The engine's reads: a position answer, once taken, is held until the test lets it go.
    const { rest, taken, release, hold } = heldAnswers(sim, '/v1/account/position');
    const engine = engineOnSim(maker, { rest });
    const other = engineOnSim(taker);
    await Promise.all([engine.start(), other.start()]);
    const ws = await attachedToWs(sim, maker, engine);
    const sizeNow = () => engine.tracker.position(1)?.size ?? '0';
    expect((await engine.execute(sell('m-1', '0.002'))).type).toBe('accepted');
    expect((await other.execute(takeBuy('t-1', '0.001'))).type).toBe('accepted');
    await vi.waitFor(() => expect(compareDecimals(sizeNow(), '0.001')).toBe(0));

    hold();
    const reconciled = engine.reconcile();
    await taken;
    // The venue answered 0.001; the feed then reports the next fill.
    expect((await other.execute(takeBuy('t-2', '0.001'))).type).toBe('accepted');
    await vi.waitFor(() => expect(compareDecimals(sizeNow(), '0.002')).toBe(0));
    release();
    await reconciled;
    expect(compareDecimals(sizeNow(), '0.002')).toBe(0);
    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });

  it('follows an order pending → open → cancelled, and the orders feed agrees', async () => {
    const maker = await fundedAccount(sim);
    const engine = engineOnSim(maker);
    await engine.start();
    const ws = await attachedToWs(sim, maker, engine);
    const states = statesOf(engine);
    const fromFeed: string[] = [];
    ws.channel('orders').subscribe((m) => {
      for (const o of m.orders) fromFeed.push(o.status);
    });

    expect((await engine.execute(sell('m-2', '0.001'))).type).toBe('accepted');
    await vi.waitFor(() => expect(fromFeed).toContain('ORDER_STATUS_OPEN'));
    expect(
      (await engine.execute(cancel({ intentId: 'c-2', strategy: 'mm', marketId: 1, target: { intentId: 'm-2' } })))
        .type,
    ).toBe('accepted');
    await vi.waitFor(() => expect(fromFeed).toContain('ORDER_STATUS_CANCELLED'));
    expect(engine.tracker.order('m-2')?.state).toBe('cancelled');
    expect(states.get('m-2')).toEqual(['submitted', 'open', 'cancelled']);
    // Cancelling it again is refused as finished, not as a bad target, and nothing is sent.
    const again = await engine.execute(
      cancel({ intentId: 'c-3', strategy: 'mm', marketId: 1, target: { intentId: 'm-2' } }),
    );
    expect(again.type === 'refused' && again.refusal).toMatchObject({
      rule: 'cancel_target_finished',
      value: 'm-2',
      reason: 'the order is already cancelled',
    });

    await engine.stop();
    await ws.close();
  });

  it('after a reconnect, reconciles through REST and catches up on a position that changed while the feed was silent', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    const engine = engineOnSim(maker);
    const other = engineOnSim(taker);
    await Promise.all([engine.start(), other.start()]);
    const ws = await attachedToWs(sim, maker, engine, { followReconnects: true });
    // The reconciliation reads the venue through REST: the simulator's request log shows its position read.
    const since = sim.runtime.clock.now();
    const positionReads = () => sim.runtime.requestLog.counts(since).get('GET /v1/account/position') ?? 0;

    expect((await engine.execute(sell('m-3', '0.001'))).type).toBe('accepted');
    sim.controls.stallStreams(true); // the maker hears nothing of the fill
    expect((await other.execute(takeBuy('t-3', '0.001'))).type).toBe('accepted');
    expect(engine.tracker.position(1)).toBeUndefined();
    sim.controls.dropWebSockets();
    sim.controls.stallStreams(false);

    await vi.waitFor(() => expect(positionReads()).toBeGreaterThan(0), { timeout: 5000 });
    await vi.waitFor(() => expect(compareDecimals(engine.tracker.position(1)?.size ?? '0', '0.001')).toBe(0));
    expect(engine.tracker.position(1)?.side).toBe('sell');
    expect(engine.tracker.order('m-3')?.state).not.toBe('open');

    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });
});
