import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { cancel, placeLimit, placeMarket, setLeverage } from '../../src/engine/intents/intentBuilders.js';
import { noncePairKey, type NoncePair } from '../../src/engine/nonces/noncePair.js';
import type { TrackedFill } from '../../src/engine/tracking/orderTracker.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { VenueError } from '../../src/venue/venueError.js';
import type { VenueWsClient } from '../../src/venue/ws/venueWsClient.js';
import { attachEngineToSimWs } from './support/engineOnSimWs.js';
import { engineOnSim } from './support/engineOnSim.js';
import { anotherProcessRollsTheAnchorTwice } from './support/anchorRoll.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/**
 * Issue 5, "retries that cannot double-trade": a send answered with a 5xx after it executed is
 * resent identically, the resend meets NonceUsed, and the engine confirms from the venue's state
 * what the first send did before it reports the intent accepted: a placement by its
 * client_order_id (an IOC order that filled at once is only on the orders and fills channels), a
 * cancel by the order being gone, a leverage update by the position's leverage.
 */
interface SendRecord {
  readonly endpoint: string;
  readonly nonce?: NoncePair;
  /** The venue's error kind, or 'ok'. */
  readonly result: string;
  readonly httpStatus?: number;
}

/**
 * The venue sender, recording each send; after the first failure it turns the simulator's faults
 * off and runs `afterFirstFailure` (another process acting) before the engine sees the error.
 */
function faultySender(
  sim: RunningSim,
  inner: ActionSender,
  afterFirstFailure?: () => Promise<void>,
): { sender: ActionSender; sends: SendRecord[] } {
  const sends: SendRecord[] = [];
  let failures = 0;
  return {
    sends,
    sender: {
      async send(request, options) {
        const base = { endpoint: request.endpoint, ...(request.nonce === undefined ? {} : { nonce: request.nonce }) };
        try {
          const receipt = await inner.send(request, options);
          sends.push({ ...base, result: 'ok' });
          return receipt;
        } catch (error) {
          sends.push({
            ...base,
            ...(error instanceof VenueError
              ? { result: error.kind, httpStatus: error.httpStatus }
              : { result: String(error) }),
          });
          if (failures++ === 0) {
            sim.controls.setFaults({ errorRate: 0 });
            await afterFirstFailure?.();
          }
          throw error;
        }
      },
    },
  };
}

const engineFor = (who: SimAccount, sender: ActionSender) => engineOnSim(who, { sender, retry: { resendDelayMs: 50 } });

/** Polls until `done` holds (feeds trail the REST answers a little). */
async function eventually(done: () => boolean, timeoutMs = 3000): Promise<void> {
  for (const started = Date.now(); !done() && Date.now() - started < timeoutMs;)
    await new Promise((r) => setTimeout(r, 20));
}

describe('engine confirms a send that executed although its answer was a 5xx', () => {
  let sim: RunningSim;
  let ws: VenueWsClient | undefined;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await ws?.close();
    ws = undefined;
    await sim.close();
  });

  async function started(
    options: { afterFirstFailure?: () => Promise<void>; syntheticBook?: boolean } = {},
  ): Promise<{ who: SimAccount; engine: Engine; sends: SendRecord[] }> {
    const who = await fundedAccount(sim);
    const recorded = faultySender(sim, venueSender(who.rest), options.afterFirstFailure);
    const engine = engineFor(who, recorded.sender);
    await engine.start();
    ws = await attachEngineToSimWs(sim, who, engine);
    if (options.syntheticBook !== false) {
      // The synthetic makers quote on a block: mine one, then read the mark it left.
      sim.controls.advanceBlocks(1);
      await engine.refreshMarkets();
    }
    return { who, engine, sends: recorded.sends };
  }

  it('an IOC market order answered 5xx after it filled: resend, NonceUsed, accepted with exactly one fill', async () => {
    // No block mined, so no synthetic quotes: the only ask is one maker's, and the IOC order
    // fills against it in one fill.
    const { who, engine, sends } = await started({ syntheticBook: false });
    const maker = await fundedAccount(sim);
    const makerEngine = engineFor(maker, venueSender(maker.rest));
    await makerEngine.start();
    const mark = engine.market(1)?.mark_price ?? '';
    const ask = await makerEngine.execute(
      placeLimit({
        intentId: 'ask',
        strategy: 'm',
        marketId: 1,
        side: 'sell',
        size: '0.001',
        price: mark,
        priceRounding: 'up',
        postOnly: true,
      }),
    );
    expect(ask.type).toBe('accepted');
    const fills: TrackedFill[] = [];
    engine.fills$.subscribe((f) => fills.push(f));
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });

    const outcome = await engine.execute(
      placeMarket({ intentId: 'ioc', strategy: 't', marketId: 1, side: 'buy', size: '0.001', timeInForce: 'IOC' }),
    );

    expect(sends.map((s) => s.result)).toEqual(['Internal', 'NonceUsed']);
    expect(noncePairKey(sends[1]!.nonce!)).toBe(noncePairKey(sends[0]!.nonce!));
    expect(outcome.type).toBe('accepted');
    const orderId = outcome.type === 'accepted' ? outcome.orderId : undefined;
    expect(orderId).toMatch(/^0x/);
    // Never open: only the orders and fills channels could show it.
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toEqual([]);
    await eventually(() => fills.length > 0);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ orderId, intentId: 'ioc', size: '0.001' });
    expect(engine.tracker.order('ioc')).toMatchObject({ state: 'filled', orderId });
    // Exactly one execution: the position is the one order's size.
    expect((await who.rest.position({ account: who.account, market_id: '1' })).size).toBe('0.001');
    await Promise.all([engine.stop(), makerEngine.stop()]);
  });

  it('a cancel answered 5xx after it executed: resend, NonceUsed, accepted, the order gone', async () => {
    const { who, engine, sends } = await started();
    const placed = await engine.execute(
      placeLimit({
        intentId: 'rest',
        strategy: 't',
        marketId: 1,
        side: 'buy',
        size: '0.00015',
        price: '30000',
        postOnly: true,
      }),
    );
    expect(placed.type).toBe('accepted');
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });

    const cancelled = await engine.execute(
      cancel({ intentId: 'c', strategy: 't', marketId: 1, target: { intentId: 'rest' } }),
    );

    expect(sends.filter((s) => s.endpoint === 'cancelOrder').map((s) => s.result)).toEqual(['Internal', 'NonceUsed']);
    expect(cancelled.type).toBe('accepted');
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toEqual([]);
    expect(engine.tracker.order('rest')?.state).toBe('cancelled');
    await engine.stop();
  });

  it('a cancel refused with InvalidNonceAnchor on its resend (another process rolled the anchor) is checked, found still open, and signed again', async () => {
    let who!: SimAccount;
    // The first send is answered 503 before executing; then another process moves the anchor.
    const setup = await started({ afterFirstFailure: () => anotherProcessRollsTheAnchorTwice(who) });
    who = setup.who;
    const { engine, sends } = setup;
    const placed = await engine.execute(
      placeLimit({
        intentId: 'rest',
        strategy: 't',
        marketId: 1,
        side: 'buy',
        size: '0.00015',
        price: '30000',
        postOnly: true,
      }),
    );
    expect(placed.type).toBe('accepted');
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 0 });

    const cancelled = await engine.execute(
      cancel({ intentId: 'c', strategy: 't', marketId: 1, target: { intentId: 'rest' } }),
    );

    const cancels = sends.filter((s) => s.endpoint === 'cancelOrder');
    // 503 before executing; the identical resend refused; still open, so a new pair (which the
    // venue refuses too until the engine resyncs); then it lands.
    expect(cancels.map((s) => s.result)).toEqual(['Unknown', 'InvalidNonceAnchor', 'InvalidNonceAnchor', 'ok']);
    expect(cancels[0]?.httpStatus).toBe(503);
    expect(noncePairKey(cancels[2]!.nonce!)).not.toBe(noncePairKey(cancels[0]!.nonce!));
    expect(cancelled.type).toBe('accepted');
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toEqual([]);
    await engine.stop();
  });

  it('a leverage update answered 5xx after it executed: resend, NonceUsed, accepted, the position at the requested leverage', async () => {
    const { who, engine, sends } = await started();
    const opened = await engine.execute(
      placeMarket({ intentId: 'open', strategy: 't', marketId: 1, side: 'buy', size: '0.001' }),
    );
    expect(opened.type).toBe('accepted');
    expect((await who.rest.position({ account: who.account, market_id: '1' })).leverage).toBe('10');
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });

    const outcome = await engine.execute(setLeverage({ intentId: 'lev', strategy: 't', marketId: 1, leverage: 5 }));

    expect(sends.filter((s) => s.endpoint === 'updateLeverage').map((s) => s.result)).toEqual([
      'Internal',
      'NonceUsed',
    ]);
    expect(outcome.type).toBe('accepted');
    expect((await who.rest.position({ account: who.account, market_id: '1' })).leverage).toBe('5');
    await engine.stop();
  });

  it('a leverage update answered 5xx after it executed, with a flat position, is reported unknown, never accepted', async () => {
    const { who, engine } = await started();
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });

    const outcome = await engine.execute(setLeverage({ intentId: 'lev', strategy: 't', marketId: 1, leverage: 5 }));

    expect(outcome.type).toBe('unknown');
    expect(outcome.type === 'unknown' ? outcome.reason : '').toMatch(/flat position shows no leverage/);
    expect((await who.rest.position({ account: who.account, market_id: '1' })).leverage).toBeNull();
    await engine.stop();
  });
});
