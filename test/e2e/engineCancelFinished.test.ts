import { firstValueFrom, NEVER, Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compareDecimals } from '../../src/core/decimal.js';
import { Engine } from '../../src/engine/engine.js';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { OrderState } from '../../src/engine/tracking/orderTracker.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { anotherProcessRollsTheAnchorTwice } from './support/anchorRoll.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';
import { engineOnSim } from './support/engineOnSim.js';
import { privateFeedsClient } from './support/engineOnSimWs.js';

/**
 * A cancel that reaches the venue after its order filled: the venue answers OrderNotFound, the
 * outcome is the `cancel_target_finished` refusal (nothing to do, not a failure), and the engine
 * learns the order's real fate from the feeds rather than calling it cancelled.
 */

/**
 * Holds the private feeds' frames back while closed and delivers them, in arrival order, on
 * release: frames that trail the venue's answers, as they may in live trading.
 */
class FeedGate {
  private held: (() => void)[] | undefined;

  pass<T>(source: Observable<T>): Observable<T> {
    return new Observable<T>((subscriber) =>
      source.subscribe({
        next: (value) => {
          if (this.held === undefined) subscriber.next(value);
          else this.held.push(() => subscriber.next(value));
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
  }

  close(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const deliver of held) deliver();
  }
}

async function attachedThrough(sim: RunningSim, who: SimAccount, engine: Engine, gate: FeedGate) {
  const ws = privateFeedsClient(sim, who, engine);
  engine.attach({
    orders: gate.pass(ws.channel('orders')),
    positions: gate.pass(ws.channel('positions')),
    fills: gate.pass(ws.channel('fills')),
    account: gate.pass(ws.channel('account')),
    oracle: NEVER,
    reconnected: NEVER,
  });
  // Subscribed last, with a snapshot: once it is here every private channel is live.
  await firstValueFrom(ws.channel('account'));
  return ws;
}

function statesOf(engine: Engine): Map<string, OrderState[]> {
  const states = new Map<string, OrderState[]>();
  engine.orders$.subscribe((o) => {
    const seen = states.get(o.intentId) ?? [];
    if (seen.at(-1) !== o.state) seen.push(o.state);
    states.set(o.intentId, seen);
  });
  return states;
}

function finishedRefusal(outcome: IntentOutcome) {
  return outcome.type === 'refused' ? outcome.refusal : outcome;
}

const limit = (id: string, side: 'buy' | 'sell', timeInForce: 'GTC' | 'IOC') =>
  placeLimit({ intentId: id, strategy: 'mm', marketId: 1, side, size: '0.001', price: '66000', timeInForce });

describe('engine: cancelling an order that is no longer open on the venue', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('a resting order filled before the cancel arrived: cancel_target_finished, and the feeds then show it filled', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    const engine = engineOnSim(maker);
    const other = engineOnSim(taker);
    await Promise.all([engine.start(), other.start()]);
    const gate = new FeedGate();
    const ws = await attachedThrough(sim, maker, engine, gate);
    const states = statesOf(engine);

    const placed = await engine.execute(limit('m-1', 'sell', 'GTC'));
    expect(placed.type).toBe('accepted');
    // The fill's frames trail: the engine still holds the order open when its cancel goes out.
    gate.close();
    expect((await other.execute({ ...limit('t-1', 'buy', 'IOC'), strategy: 'taker' })).type).toBe('accepted');
    expect(engine.tracker.order('m-1')?.state).toBe('open');

    const outcome = await engine.execute(
      cancel({ intentId: 'c-1', strategy: 'mm', marketId: 1, target: { intentId: 'm-1' } }),
    );
    expect(finishedRefusal(outcome)).toMatchObject({
      rule: 'cancel_target_finished',
      value: 'm-1',
      reason: `the venue has no open order ${placed.type === 'accepted' ? placed.orderId : ''} (OrderNotFound): it already filled or was cancelled`,
    });
    // Not called cancelled on the strength of the venue's "not found".
    expect(engine.tracker.order('m-1')?.state).toBe('open');

    gate.release();
    await vi.waitFor(() => expect(engine.tracker.order('m-1')?.state).toBe('filled'));
    expect(compareDecimals(engine.tracker.order('m-1')?.filledSize ?? '', '0.001')).toBe(0);
    expect(states.get('m-1')).toEqual(['submitted', 'open', 'filled']);
    await vi.waitFor(() => expect(compareDecimals(engine.tracker.position(1)?.size ?? '0', '0.001')).toBe(0));
    expect(engine.tracker.position(1)?.side).toBe('sell');

    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });

  it('a cancel whose answer was lost, its order filled meanwhile: the order history says so, cancel_target_finished, never accepted', async () => {
    const [maker, taker] = [await fundedAccount(sim), await fundedAccount(sim)];
    const other = engineOnSim(taker);
    // The cancel's first send gets a 503 before it executes; meanwhile the taker fills the order
    // and another process of the maker's moves its nonce anchor on, so the identical resend is
    // refused (InvalidNonceAnchor) and the engine must read what became of the order.
    let lost = 0;
    const sender: ActionSender = {
      async send(request, options) {
        if (request.endpoint !== 'cancelOrder' || lost++ > 0) return venueSender(maker.rest).send(request, options);
        sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 0 });
        try {
          return await venueSender(maker.rest).send(request, options);
        } finally {
          sim.controls.setFaults({ errorRate: 0 });
          expect((await other.execute({ ...limit('t-1', 'buy', 'IOC'), strategy: 'taker' })).type).toBe('accepted');
          await anotherProcessRollsTheAnchorTwice(maker);
        }
      },
    };
    const engine = engineOnSim(maker, { sender });
    await Promise.all([engine.start(), other.start()]);
    const gate = new FeedGate();
    const ws = await attachedThrough(sim, maker, engine, gate);
    const placed = await engine.execute(limit('m-1', 'sell', 'GTC'));
    expect(placed.type).toBe('accepted');
    gate.close();

    const outcome = await engine.execute(
      cancel({ intentId: 'c-1', strategy: 'mm', marketId: 1, target: { intentId: 'm-1' } }),
    );
    expect(lost).toBe(2);
    expect(finishedRefusal(outcome)).toMatchObject({
      rule: 'cancel_target_finished',
      value: 'm-1',
      reason: expect.stringContaining('its history shows ORDER_STATUS_FILLED') as unknown,
    });
    expect(engine.tracker.order('m-1')?.state).toBe('open');
    gate.release();
    await vi.waitFor(() => expect(engine.tracker.order('m-1')?.state).toBe('filled'));

    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });

  it('an IOC order that filled at once, cancelled by its order id: cancel_target_finished, and it stays filled', async () => {
    const [taker, maker] = [await fundedAccount(sim), await fundedAccount(sim)];
    const engine = engineOnSim(taker);
    const other = engineOnSim(maker);
    await Promise.all([engine.start(), other.start()]);
    const ws = await attachedThrough(sim, taker, engine, new FeedGate());
    expect((await other.execute({ ...limit('r-1', 'sell', 'GTC'), strategy: 'maker' })).type).toBe('accepted');

    const placed = await engine.execute(limit('i-1', 'buy', 'IOC'));
    const orderId = placed.type === 'accepted' ? placed.orderId : undefined;
    expect(orderId).toMatch(/^0x[0-9a-f]+$/i);
    await vi.waitFor(() => expect(engine.tracker.order('i-1')?.state).toBe('filled'));

    const outcome = await engine.execute(
      cancel({ intentId: 'c-2', strategy: 'mm', marketId: 1, target: { orderId: orderId ?? '' } }),
    );
    expect(finishedRefusal(outcome)).toMatchObject({
      rule: 'cancel_target_finished',
      value: orderId,
      reason: expect.stringMatching(/\(OrderNotFound\): it already filled or was cancelled$/) as unknown,
    });
    expect(engine.tracker.order('i-1')?.state).toBe('filled');
    expect(compareDecimals(engine.tracker.order('i-1')?.filledSize ?? '', '0.001')).toBe(0);

    await Promise.all([engine.stop(), other.stop()]);
    await ws.close();
  });
});
