import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { Engine } from '../../src/engine/engine.js';
import { venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import {
  adjustIsolatedMargin,
  placeLimit,
  setMarginMode,
  placeMarket,
  cancel,
  setLeverage,
} from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { EngineJournal } from '../../src/engine/tracking/engineJournal.js';
import { JwtSession } from '../../src/engine/sending/jwtSession.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import { VenueError } from '../../src/venue/venueError.js';
import { engineOnSim } from './support/engineOnSim.js';
import { fundedAccount, grantAllowance, type SimAccount } from './support/simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Room for bursts of a thousand orders. */
const BURST_GUARDS = { maxOpenOrders: 1000, actionsPerSecond: 10_000, actionBurst: 10_000 } as const;

function engineFor(who: SimAccount, overrides: { sender?: ActionSender; journal?: EngineJournal } = {}): Engine {
  return engineOnSim(who, {
    ...overrides,
    guards: BURST_GUARDS,
    retry: {
      accountNotRegisteredBaseDelayMs: 100,
      accountNotRegisteredMaxDelayMs: 400,
      accountNotRegisteredMaxAttempts: 40,
      resendDelayMs: 50,
      rateLimitedDelayMs: 200,
    },
    markets: [1, 2],
  });
}

const buy = (i: number, extra: Partial<Parameters<typeof placeLimit>[0]> = {}) =>
  placeLimit({
    intentId: `t-${i}`,
    strategy: 't',
    marketId: 1,
    side: 'buy',
    size: '0.00015',
    price: '30000',
    postOnly: true,
    ...extra,
  });

describe('engine against the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('lands 500 intents fired at once with zero nonce errors and no duplicate, across two anchor rollovers', async () => {
    // Neither side rate-limits REST here: this is about nonces, not the 500-per-10-s budget.
    const who = {
      ...(await fundedAccount(sim)),
      rest: createRestClient({ baseUrl: sim.restUrl, timeoutMs: 10_000, rateLimit: false }),
    };
    // Every send as it left and how the venue answered: a nonce error the engine resynced from, or
    // a resend, would still end accepted, so the sends themselves are what must be clean.
    const real = venueSender(who.rest);
    const sends: { pair: string; anchor: bigint; error?: string }[] = [];
    const recording: ActionSender = {
      async send(request, options) {
        const nonce = request.nonce;
        const base = {
          pair: nonce === undefined ? 'none' : `${nonce.anchor}:${nonce.bit}`,
          anchor: nonce?.anchor ?? -1n,
        };
        try {
          const receipt = await real.send(request, options);
          sends.push(base);
          return receipt;
        } catch (error) {
          sends.push({ ...base, error: error instanceof VenueError ? error.kind : String(error) });
          throw error;
        }
      },
    };
    const engine = engineFor(who, { sender: recording });
    await engine.start();
    const before = BigInt((await who.rest.nonceState(who.account)).nonce_anchor);
    const outcomes = await Promise.all(
      Array.from({ length: 500 }, (_, i) => engine.execute(buy(i, { price: (30000 + (i % 50)).toString() }))),
    );
    const failed = outcomes.filter((o) => o.type !== 'accepted');
    expect(failed).toEqual([]);
    // One send per intent: no nonce error (NonceUsed, InvalidNonceAnchor, InvalidNonceIndex), no
    // resend, no resync; each pair once; anchors before + 1, + 2 and + 3, so two rollovers.
    expect(sends.filter((x) => x.error !== undefined)).toEqual([]);
    expect(sends).toHaveLength(500);
    expect(new Set(sends.map((x) => x.pair)).size).toBe(500);
    const anchors = [...new Set(sends.map((x) => x.anchor))].sort((a, b) => (a < b ? -1 : 1));
    expect(anchors[0]).toBe(before + 1n);
    expect(anchors.length - 1).toBeGreaterThanOrEqual(2);
    const orderIds = outcomes.map((o) => (o.type === 'accepted' ? o.orderId : undefined));
    expect(new Set(orderIds).size).toBe(500);
    const after = BigInt((await who.rest.nonceState(who.account)).nonce_anchor);
    expect(after - before).toBeGreaterThanOrEqual(3n); // anchors +1, +2, +3 used: two rollovers
    let open = 0;
    for (const m of [1])
      open += (await who.rest.openOrders({ account: who.account, market_id: String(m) })).orders.length;
    expect(open).toBe(500);
    await engine.stop();
  }, 60_000);

  it('rides out the registration lag after the first deposit', async () => {
    sim.controls.setRegistrationLag(1200);
    const who = await fundedAccount(sim, { skipLag: false });
    const engine = engineFor(who);
    await engine.start();
    const started = Date.now();
    const outcome = await engine.execute(buy(1));
    expect(outcome.type).toBe('accepted');
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    await engine.stop();
  });

  it('a place answered with a 5xx after it executed leaves exactly one order', async () => {
    const who = await fundedAccount(sim);
    const real = venueSender(who.rest);
    let sends = 0;
    const firstFails: ActionSender = {
      async send(request, options) {
        sends++;
        try {
          return await real.send(request, options);
        } finally {
          sim.controls.setFaults({ errorRate: 0 });
        }
      },
    };
    const engine = engineFor(who, { sender: firstFails });
    await engine.start();
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });
    const outcome = await engine.execute(buy(7));
    expect(outcome.type).toBe('accepted');
    expect(sends).toBe(2);
    const open = await who.rest.openOrders({ account: who.account, market_id: '1' });
    expect(open.orders).toHaveLength(1);
    expect(outcome.type === 'accepted' ? outcome.orderId : '').toBe(open.orders[0]?.order_id);
    await engine.stop();
  });

  it('refuses a margin-mode switch with an open position, and with close_first closes then switches', async () => {
    const who = await fundedAccount(sim);
    const engine = engineFor(who);
    await engine.start();
    // The synthetic makers quote on each block: make sure one has passed, then read the current
    // mark (this engine is not attached to the oracle feed) so the slippage bound is fresh.
    sim.controls.advanceBlocks(1);
    await engine.refreshMarkets();
    const taken = await engine.execute(
      placeMarket({ intentId: 'open', strategy: 't', marketId: 1, side: 'buy', size: '0.001' }),
    );
    expect(taken.type).toBe('accepted');
    await engine.reconcile();
    expect(engine.tracker.position(1)?.size).toBe('0.001');

    const refused = await engine.execute(
      setMarginMode({ intentId: 'mm-1', strategy: 't', marketId: 1, marginMode: 'isolated' }),
    );
    expect(refused.type).toBe('refused');
    expect(refused.type === 'refused' ? refused.refusal.rule : '').toBe('margin_mode_open_position');

    const switched = await engine.execute(
      setMarginMode({ intentId: 'mm-2', strategy: 't', marketId: 1, marginMode: 'isolated', policy: 'close_first' }),
    );
    expect(switched.type).toBe('accepted');
    const flat = await who.rest.position({ account: who.account, market_id: '1' });
    expect(flat.size === null || flat.size === '0').toBe(true);
    // A flat position reports empty fields (venue-facts): fund the isolated margin, open a new
    // position and read the mode from it.
    const funded = await engine.execute(
      adjustIsolatedMargin({ intentId: 'iso', strategy: 't', marketId: 1, amount: '100' }),
    );
    expect(funded.type).toBe('accepted');
    await engine.refreshMarkets();
    const reopened = await engine.execute(
      placeMarket({ intentId: 'reopen', strategy: 't', marketId: 1, side: 'buy', size: '0.001' }),
    );
    expect(reopened.type).toBe('accepted');
    expect((await who.rest.position({ account: who.account, market_id: '1' })).margin_mode).toBe(1);
    await engine.stop();
  }, 30_000);

  it('the kill switch cancels every order and refuses new intents until reset', async () => {
    const who = await fundedAccount(sim);
    const engine = engineFor(who);
    await engine.start();
    for (let i = 0; i < 3; i++) expect((await engine.execute(buy(i))).type).toBe('accepted');
    const seen: IntentOutcome[] = [];
    engine.outcomes$.subscribe((o) => seen.push(o));
    engine.tripKillSwitch('test');
    for (
      let i = 0;
      i < 50 && (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders.length > 0;
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(0);
    const blocked = await engine.execute(buy(10));
    expect(blocked.type === 'refused' ? blocked.refusal.rule : blocked.type).toBe('kill_switch');
    expect(seen.some((o) => o.kind === 'cancelAll' && o.type === 'accepted')).toBe(true);
    engine.resetKillSwitch();
    expect((await engine.execute(buy(11))).type).toBe('accepted');
    await engine.stop();
  });

  it('cancels by intent id, resolving the resting order id itself', async () => {
    const who = await fundedAccount(sim);
    const engine = engineFor(who);
    await engine.start();
    expect((await engine.execute(buy(1))).type).toBe('accepted');
    const cancelled = await engine.execute(
      cancel({ intentId: 'c-1', strategy: 't', marketId: 1, target: { intentId: 't-1' } }),
    );
    expect(cancelled.type, JSON.stringify(cancelled)).toBe('accepted');
    expect(engine.tracker.order('t-1')?.state).toBe('cancelled');
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(0);
    await engine.stop();
  });

  it('a cancel by intent id of a placement not yet sent takes it out of the queue: nothing reaches the venue', async () => {
    const who = await fundedAccount(sim);
    const engine = engineFor(who);
    await engine.start();
    const placing = engine.execute(buy(1));
    const cancelled = await engine.execute(
      cancel({ intentId: 'c-1', strategy: 't', marketId: 1, target: { intentId: 't-1' } }),
    );
    const placed = await placing;
    expect(cancelled.type, JSON.stringify(cancelled)).toBe('accepted');
    expect(placed.type === 'refused' ? placed.refusal.rule : placed.type).toBe('cancelled_queued');
    expect(engine.tracker.order('t-1')?.state).toBe('cancelled');
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(0);
    await engine.stop();
  });

  it('refuses invalid intents before signing, naming the rule and value', async () => {
    const who = await fundedAccount(sim);
    const engine = engineFor(who);
    await engine.start();
    const anchorBefore = (await who.rest.nonceState(who.account)).nonce_anchor;
    const offGrid = await engine.execute(buy(1, { size: '0.000155' }));
    expect(offGrid.type === 'refused' ? [offGrid.refusal.rule, offGrid.refusal.value] : offGrid.type).toEqual([
      'size_step',
      '0.000155',
    ]);
    const lev = await engine.execute(setLeverage({ intentId: 'l', strategy: 't', marketId: 1, leverage: 51 }));
    expect(lev.type === 'refused' ? lev.refusal.rule : lev.type).toBe('leverage');
    expect((await who.rest.nonceState(who.account)).nonce_anchor).toBe(anchorBefore);
    await engine.stop();
  });

  it('journals intent, nonce, request (without signature), response and outcome, in that order', async () => {
    const who = await fundedAccount(sim);
    const events: string[] = [];
    const bodies: Record<string, unknown>[] = [];
    const journal: EngineJournal = {
      intentReceived: (i) => events.push(`intent ${i.intentId}`),
      nonceAllocated: (p, id) => events.push(`nonce ${id} ${p.anchor}:${p.bit}`),
      requestSent: (e) => {
        events.push(`sent ${e.intentId} #${e.attempt}`);
        bodies.push(e.body);
      },
      responseReceived: (e) => events.push(`answer ${e.intentId} ${e.ok}`),
      outcome: (o) => events.push(`outcome ${o.intentId} ${o.type}`),
    };
    const engine = engineFor(who, { journal });
    await engine.start();
    const anchor = BigInt((await who.rest.nonceState(who.account)).nonce_anchor) + 1n;
    await engine.execute(buy(1));
    expect(events).toEqual([
      'intent t-1',
      `nonce t-1 ${anchor}:0`,
      'sent t-1 #1',
      'answer t-1 true',
      'outcome t-1 accepted',
    ]);
    const permit = bodies[0]?.['permit'] as Record<string, unknown>;
    expect(permit['nonce_bitmap_index']).toBe(0);
    expect('signature' in permit).toBe(false);
    await engine.stop();
  });
});

describe('engine in JWT mode against the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('reports AllowanceExpired without an allowance, trades after approve-single, refreshes the token before expiry', async () => {
    const who = await fundedAccount(sim);
    const clock = new ShiftedClock();
    const session = new JwtSession({
      rest: who.rest,
      account: who.account,
      accountSigner: who.accountSigner,
      context: () => who.context,
      clock,
    });
    const engine = new Engine({
      account: who.account,
      signer: who.signer,
      rest: who.rest,
      sender: venueSender(who.rest, session),
      config: withEngineDefaults({ guards: { actionsPerSecond: 1000, actionBurst: 1000 } }),
      selectors: SPEC_SELECTORS,
      clock,
      log: quiet,
      markets: [1],
      authMode: 'jwt',
    });
    await engine.start();
    const denied = await engine.execute(buy(1));
    expect(denied.type === 'failed' ? denied.error.kind : denied.type).toBe('AllowanceExpired');

    await grantAllowance(who);

    const first = await session.bearer();
    const placed = await engine.execute(buy(2));
    expect(placed.type).toBe('accepted');
    clock.shiftMs = 850_000; // within the refresh margin of the 900 s access token
    const refreshed = await session.bearer();
    expect(refreshed).not.toBe(first);
    expect((await engine.execute(buy(3))).type).toBe('accepted');
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(2);
    await engine.stop();
  });
});

/** The system clock, shifted forward on demand (to reach a token's refresh window). */
class ShiftedClock {
  shiftMs = 0;
  now(): number {
    return Date.now() + this.shiftMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}
