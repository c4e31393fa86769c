import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import type { GuardConfig } from '../../src/engine/config/engineConfig.js';
import { placeLimit, placeMarket, setLeverage } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { SignedRequest } from '../../src/engine/signing/signedRequest.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { VenueError } from '../../src/venue/venueError.js';
import { engineOnSim } from './support/engineOnSim.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/** The venue sender, recording what it sends, when, and every failure the venue answers. */
interface RecordingSender extends ActionSender {
  readonly sent: { readonly request: SignedRequest; readonly atMs: number }[];
  readonly errors: string[];
}

function recording(who: SimAccount): RecordingSender {
  const inner = venueSender(who.rest);
  const sent: RecordingSender['sent'] = [];
  const errors: string[] = [];
  return {
    sent,
    errors,
    async send(request, options) {
      sent.push({ request, atMs: Date.now() });
      try {
        return await inner.send(request, options);
      } catch (error) {
        errors.push(error instanceof VenueError ? error.kind : String(error));
        throw error;
      }
    },
  };
}

/** Every limit out of the way but the ones under test. */
const engineFor = (who: SimAccount, sender: ActionSender, guards: Partial<GuardConfig>, maxGuardWaitMs?: number) =>
  engineOnSim(who, { sender, guards, markets: [1, 2], ...(maxGuardWaitMs === undefined ? {} : { maxGuardWaitMs }) });

/** A post-only bid below the simulator's BTC mark (65000): it rests. */
const bid = (id: string, size: string, price = '60000', marketId = 1) =>
  placeLimit({ intentId: id, strategy: 't', marketId, side: 'buy', size, price, postOnly: true });
const refusalOf = (o: IntentOutcome) => (o.type === 'refused' ? o.refusal : o);

describe('engine risk limits against the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // No automatic blocks: no synthetic makers, marks stay at the markets' initial prices.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('max order notional: refuses size × price above the limit, naming it and the value, and sends nothing for it', async () => {
    const who = await fundedAccount(sim);
    const sender = recording(who);
    const engine = engineFor(who, sender, { maxOrderNotional: '50' });
    await engine.start();
    expect(refusalOf(await engine.execute(bid('big', '0.001')))).toMatchObject({
      rule: 'max_order_notional',
      value: '60',
      reason: 'order notional 60 exceeds the limit of 50',
    });
    // A market order is valued at the mark: 0.001 × 65000.
    expect(
      refusalOf(
        await engine.execute(placeMarket({ intentId: 'mkt', strategy: 't', marketId: 1, side: 'sell', size: '0.001' })),
      ),
    ).toMatchObject({ rule: 'max_order_notional', value: '65' });
    expect(sender.sent).toHaveLength(0);
    expect((await engine.execute(bid('small', '0.0008'))).type).toBe('accepted');
    expect(sender.sent).toHaveLength(1);
    await engine.stop();
  });

  it('max position per market: refuses an order that would take the position past the market limit, counting the position held', async () => {
    const [who, other] = [await fundedAccount(sim), await fundedAccount(sim)];
    const sender = recording(who);
    const engine = engineFor(who, sender, { maxPositionNotional: '1000', maxPositionNotionalByMarket: { '1': '100' } });
    const counterparty = engineFor(other, venueSender(other.rest), {});
    await Promise.all([engine.start(), counterparty.start()]);

    // Valued at the mark: 0.002 × 65000 = 130 > 100 in market 1; market 2 has the general limit.
    expect(refusalOf(await engine.execute(bid('too-long', '0.002')))).toMatchObject({
      rule: 'max_position',
      value: '130',
      reason: 'position value after this order, 130, exceeds the limit of 100 for market 1',
    });
    expect(sender.sent).toHaveLength(0);
    expect((await engine.execute(bid('eth', '0.1', '3000', 2))).type).toBe('accepted');

    // Short 0.001 (65): another 0.001 short would be 130; buying 0.002 back ends long 0.001 (65).
    expect(
      (
        await engine.execute(
          placeLimit({
            intentId: 'short',
            strategy: 't',
            marketId: 1,
            side: 'sell',
            size: '0.001',
            price: '66000',
            postOnly: true,
          }),
        )
      ).type,
    ).toBe('accepted');
    expect(
      (
        await counterparty.execute(
          placeLimit({
            intentId: 'lift',
            strategy: 'c',
            marketId: 1,
            side: 'buy',
            size: '0.001',
            price: '66000',
            timeInForce: 'IOC',
          }),
        )
      ).type,
    ).toBe('accepted');
    await engine.reconcile();
    expect(engine.tracker.position(1)).toMatchObject({ side: 'sell', size: '0.001' });
    const sends = sender.sent.length;
    expect(
      refusalOf(
        await engine.execute(
          placeLimit({
            intentId: 'shorter',
            strategy: 't',
            marketId: 1,
            side: 'sell',
            size: '0.001',
            price: '66000',
            postOnly: true,
          }),
        ),
      ),
    ).toMatchObject({ rule: 'max_position', value: '130' });
    expect(sender.sent).toHaveLength(sends);
    expect((await engine.execute(bid('flip', '0.002'))).type).toBe('accepted');
    await Promise.all([engine.stop(), counterparty.stop()]);
  });

  it('max open orders: refuses a resting order past the limit (resting plus in flight), not an IOC', async () => {
    const who = await fundedAccount(sim);
    const sender = recording(who);
    const engine = engineFor(who, sender, { maxOpenOrders: 2 });
    await engine.start();
    // Fired at once: the third sees two in flight.
    const outcomes = await Promise.all(
      [bid('o-1', '0.00015'), bid('o-2', '0.00015', '59000'), bid('o-3', '0.00015', '58000')].map((i) =>
        engine.execute(i),
      ),
    );
    expect(outcomes.map((o) => o.type)).toEqual(['accepted', 'accepted', 'refused']);
    expect(refusalOf(outcomes[2] as IntentOutcome)).toMatchObject({
      rule: 'max_open_orders',
      value: '2',
      reason: '2 orders are open or in flight; the limit is 2',
    });
    expect(sender.sent).toHaveLength(2);
    expect(refusalOf(await engine.execute(bid('o-4', '0.00015')))).toMatchObject({
      rule: 'max_open_orders',
      value: '2',
    });
    expect(sender.sent).toHaveLength(2);
    // An IOC leaves nothing on the book: not limited (nothing to match, so it is cancelled at once).
    expect(
      (
        await engine.execute(
          placeLimit({
            intentId: 'ioc',
            strategy: 't',
            marketId: 1,
            side: 'buy',
            size: '0.00015',
            price: '60000',
            timeInForce: 'IOC',
          }),
        )
      ).type,
    ).toBe('accepted');
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(2);
    await engine.stop();
  });

  it('max actions per second: spaces sends to the rate, and refuses one that would wait longer than allowed, naming the limit', async () => {
    const who = await fundedAccount(sim);
    const paced = recording(who);
    const engine = engineFor(who, paced, { actionsPerSecond: 5, actionBurst: 1 });
    await engine.start();
    const outcomes = await Promise.all(
      [bid('r-1', '0.00015'), bid('r-2', '0.00015'), bid('r-3', '0.00015')].map((i) => engine.execute(i)),
    );
    expect(outcomes.map((o) => o.type)).toEqual(['accepted', 'accepted', 'accepted']);
    // Admitted 200 ms apart (5 per second, burst 1), so the third 400 ms after the first; each is
    // sent after signing, whose delay a loaded machine stretches (the first was once sent 135 ms
    // late). At once they would all go within a few milliseconds.
    expect((paced.sent[2]?.atMs ?? 0) - (paced.sent[0]?.atMs ?? 0)).toBeGreaterThanOrEqual(200);
    await engine.stop();

    const impatient = recording(who);
    // One per second, waiting at most 100 ms: the second would wait a second for its token.
    const strict = engineFor(who, impatient, { actionsPerSecond: 1, actionBurst: 1 }, 100);
    await strict.start();
    const [first, second] = await Promise.all([
      strict.execute(bid('s-1', '0.00015')),
      strict.execute(bid('s-2', '0.00015')),
    ]);
    expect(first.type).toBe('accepted');
    expect(refusalOf(second)).toMatchObject({
      rule: 'guard_wait_timeout',
      reason: expect.stringMatching(/^waited \d+ ms: more than 1 actions per second \(burst 1\)$/),
    });
    expect(impatient.sent).toHaveLength(1);
    await strict.stop();
  });
});

describe("the venue's one leverage update per second, against the simulator mining blocks", () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('three leverage updates at once all land, none answered 429', async () => {
    const who = await fundedAccount(sim);
    const sender = recording(who);
    const engine = engineFor(who, sender, {});
    await engine.start();
    const outcomes = await Promise.all(
      [2, 3, 4].map((leverage) =>
        engine.execute(setLeverage({ intentId: `lev-${leverage}`, strategy: 't', marketId: 1, leverage })),
      ),
    );
    expect(outcomes.map((o) => o.type)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(sender.errors).toEqual([]);
    expect(sender.sent).toHaveLength(3);
    // One at a time, each a second after the previous answer.
    const gaps = sender.sent.slice(1).map((s, i) => s.atMs - (sender.sent[i]?.atMs ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000);
    await engine.stop();
  });
});
