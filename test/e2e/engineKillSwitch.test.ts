import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import { FeedLostError } from '../../src/engine/connection/feedLostError.js';
import { adjustIsolatedMargin, placeLimit, setMarginMode } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { SignedRequest } from '../../src/engine/signing/signedRequest.js';
import { revokeSigner } from '../../src/runtime/account/revokeSigner.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { SignerNotActiveError } from '../../src/venue/ws/venueWsError.js';
import { attachEngineToSimWs } from './support/engineOnSimWs.js';
import { engineOnSim, quietLog } from './support/engineOnSim.js';
import { JumpClock } from './support/jumpClock.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/** The venue sender, recording every request it sends. */
function recording(who: SimAccount): ActionSender & { sent: SignedRequest[] } {
  const inner = venueSender(who.rest);
  const sent: SignedRequest[] = [];
  return { sent, send: (request, options) => (sent.push(request), inner.send(request, options)) };
}

/** Kill switch at a 5 USDC loss, confirmed after 150 ms; every other limit out of the way. */
const engineFor = (who: SimAccount, sender?: ActionSender, clock?: Clock) =>
  engineOnSim(who, {
    ...(sender === undefined ? {} : { sender }),
    ...(clock === undefined ? {} : { clock }),
    guards: { killSwitchMaxLoss: '5', killSwitchLossConfirmMs: 150 },
  });

const rest = (id: string) =>
  placeLimit({
    intentId: id,
    strategy: 't',
    marketId: 1,
    side: 'buy',
    size: '0.00015',
    price: '30000',
    postOnly: true,
  });
const accepted = async (outcome: Promise<IntentOutcome>) => expect((await outcome).type).toBe('accepted');
/**
 * Once the engine's feeds show the venue's `balance`, its clock moves past the loss confirmation:
 * a loss those frames showed, even between two of them, would have tripped the switch by then.
 */
async function pastConfirmation(engine: Engine, clock: JumpClock, balance: string): Promise<void> {
  await vi.waitFor(() => expect(engine.tracker.currentBalance()).toBe(balance), { timeout: 5_000 });
  await clock.jump(1_000);
}

describe('the loss kill switch against the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // No automatic blocks: no synthetic makers, so the book holds only these orders.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('does not trip when margin moves into an isolated market and back (the ledger counts fills and fees, not balances)', async () => {
    const who = await fundedAccount(sim);
    const clock = new JumpClock();
    const engine = engineFor(who, undefined, clock);
    await engine.start();
    const ws = await attachEngineToSimWs(sim, who, engine);

    await accepted(
      engine.execute(setMarginMode({ intentId: 'iso-mode', strategy: 't', marketId: 1, marginMode: 'isolated' })),
    );
    await accepted(
      engine.execute(adjustIsolatedMargin({ intentId: 'iso-add', strategy: 't', marketId: 1, amount: '150' })),
    );
    await vi.waitFor(async () => expect((await who.rest.crossMarginBalance(who.account)).balance).toBe('850'));
    await pastConfirmation(engine, clock, '850');
    expect(engine.killSwitch.tripped).toBe(false);
    // Out again: the positions frame (isolated -150) reaches the engine before the account frame.
    await accepted(
      engine.execute(adjustIsolatedMargin({ intentId: 'iso-remove', strategy: 't', marketId: 1, amount: '-100' })),
    );
    await accepted(
      engine.execute(setMarginMode({ intentId: 'cross-mode', strategy: 't', marketId: 1, marginMode: 'cross' })),
    );
    await vi.waitFor(async () => expect((await who.rest.crossMarginBalance(who.account)).balance).toBe('1000'));
    await pastConfirmation(engine, clock, '1000');
    expect(engine.killSwitch).toEqual({ tripped: false });
    await accepted(engine.execute(rest('after')));

    await engine.stop();
    await ws.close();
  });

  it('trips on a realized loss past the limit: cancels every order and refuses new intents until reset', async () => {
    const [who, other] = [await fundedAccount(sim), await fundedAccount(sim)];
    const sender = recording(who);
    const engine = engineFor(who, sender);
    const counterparty = engineFor(other);
    await Promise.all([engine.start(), counterparty.start()]);
    const ws = await attachEngineToSimWs(sim, who, engine);

    await accepted(engine.execute(rest('resting')));
    // Short 0.002 at 66000, bought back at 69000: a realized loss of 6 USDC plus fees.
    await accepted(
      engine.execute(
        placeLimit({
          intentId: 'short',
          strategy: 't',
          marketId: 1,
          side: 'sell',
          size: '0.002',
          price: '66000',
          postOnly: true,
        }),
      ),
    );
    await accepted(
      counterparty.execute(
        placeLimit({
          intentId: 'lift',
          strategy: 'c',
          marketId: 1,
          side: 'buy',
          size: '0.002',
          price: '66000',
          timeInForce: 'IOC',
        }),
      ),
    );
    await accepted(
      counterparty.execute(
        placeLimit({
          intentId: 'offer',
          strategy: 'c',
          marketId: 1,
          side: 'sell',
          size: '0.002',
          price: '69000',
          postOnly: true,
        }),
      ),
    );
    expect(engine.killSwitch.tripped).toBe(false);
    await accepted(
      engine.execute(
        placeLimit({
          intentId: 'cover',
          strategy: 't',
          marketId: 1,
          side: 'buy',
          size: '0.002',
          price: '69000',
          timeInForce: 'IOC',
          reduceOnly: true,
        }),
      ),
    );

    await vi.waitFor(() => expect(engine.killSwitch.tripped).toBe(true), { timeout: 3000 });
    expect(engine.killSwitch.reason).toMatch(/^loss limit reached: PnL -6\.\d+ <= -5$/);
    await vi.waitFor(async () =>
      expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toEqual([]),
    );
    expect(sender.sent.map((r) => r.endpoint).at(-1)).toBe('cancelAllOrders');

    const sends = sender.sent.length;
    const blocked = await engine.execute(rest('blocked'));
    expect(blocked.type === 'refused' && blocked.refusal).toMatchObject({
      rule: 'kill_switch',
      reason: expect.stringContaining('loss limit reached'),
    });
    expect(sender.sent).toHaveLength(sends);

    engine.resetKillSwitch();
    await accepted(engine.execute(rest('after-reset')));

    await Promise.all([engine.stop(), counterparty.stop()]);
    await ws.close();
  });

  it('trips when a private feed fails for good (signer revoked): refuses new intents naming the lost feed, and tells the runtime once', async () => {
    const who = await fundedAccount(sim);
    const sender = recording(who);
    const engine = engineFor(who, sender);
    await engine.start();
    const lost: FeedLostError[] = [];
    // No open orders: the trip sends no cancel-all (which the venue would refuse now, stopping the
    // engine as SignerNotAuthorized before the kill switch is even consulted).
    const ws = await attachEngineToSimWs(sim, who, engine, { onFeedLost: (error) => lost.push(error) });

    await revokeSigner({
      rest: who.rest,
      account: who.accountSigner,
      signer: who.signer.address,
      clock: systemClock,
      log: quietLog,
    });
    // The venue drops the connection; re-authenticating finds the signer revoked, so every private
    // channel fails with SignerNotActiveError. Before, RxJS rethrew that asynchronously (a crash).
    await vi.waitFor(() => expect(engine.killSwitch.tripped).toBe(true), { timeout: 5000 });
    expect(engine.killSwitch.reason).toMatch(
      /^feed lost: the (orders|positions|fills|account) feed failed: WebSocket auth refused: signer 0x[0-9a-fA-F]{40} of account 0x[0-9a-fA-F]{40} has status 3/,
    );
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(FeedLostError);
    expect(lost[0]?.cause).toBeInstanceOf(SignerNotActiveError);
    expect(lost[0]?.hints[0]).toMatch(/the signer was revoked/);

    const blocked = await engine.execute(rest('after'));
    expect(blocked.type === 'refused' && blocked.refusal).toMatchObject({
      rule: 'kill_switch',
      reason: expect.stringContaining('feed lost: the '),
    });
    expect(sender.sent).toEqual([]);
    await engine.stop();
    await ws.close();
  });
});
