import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, unixSeconds, type Clock } from '../../src/core/clock.js';
import { dryRunSender, venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import type { NonceConfig } from '../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import { noncePairKey, type NoncePair } from '../../src/engine/nonces/noncePair.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { VenueError } from '../../src/venue/venueError.js';
import { foreignCancelAll } from './support/anchorRoll.js';
import { engineOnSim } from './support/engineOnSim.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

interface EngineSetup {
  sender?: ActionSender;
  nonces?: NonceConfig;
  clock?: Clock;
  rest?: RestClient;
}

function engineFor(who: SimAccount, setup: EngineSetup = {}): Engine {
  return engineOnSim(who, {
    ...setup,
    guards: { maxOpenOrders: 1000, actionsPerSecond: 10_000, actionBurst: 10_000 },
    retry: {
      accountNotRegisteredBaseDelayMs: 100,
      accountNotRegisteredMaxDelayMs: 200,
      accountNotRegisteredMaxAttempts: 40,
      resendDelayMs: 50,
    },
  });
}

const buy = (id: string, price = '30000') =>
  placeLimit({ intentId: id, strategy: 't', marketId: 1, side: 'buy', size: '0.00015', price, postOnly: true });

/** Every send as it left, and the venue's error kind when it failed. */
interface SendRecord {
  readonly nonce?: NoncePair;
  readonly deadline?: number;
  readonly atSeconds: number;
  readonly error?: string;
}

function recordingSender(
  inner: ActionSender,
  clock: Clock = systemClock,
  onFailure?: (error: unknown, sends: SendRecord[]) => void,
): { sender: ActionSender; sends: SendRecord[] } {
  const sends: SendRecord[] = [];
  return {
    sends,
    sender: {
      async send(request, options) {
        const base = {
          ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
          ...(request.deadline === undefined ? {} : { deadline: request.deadline }),
          atSeconds: unixSeconds(clock),
        };
        try {
          const receipt = await inner.send(request, options);
          sends.push(base);
          return receipt;
        } catch (error) {
          sends.push({ ...base, error: error instanceof VenueError ? error.kind : String(error) });
          onFailure?.(error, sends);
          throw error;
        }
      },
    },
  };
}

async function venueAnchor(who: SimAccount): Promise<bigint> {
  return BigInt((await who.rest.nonceState(who.account)).nonce_anchor);
}

describe('engine nonces and authorisation against the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // No REST rate limit on either side: these tests are about nonces, not the 500-per-10-s budget.
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('dry run signs everything, sends nothing, and keeps handing out pairs across anchors', async () => {
    const who = await fundedAccount(sim);
    const logged: { endpoint: string }[] = [];
    const engine = engineFor(who, {
      sender: dryRunSender({ info: (obj) => logged.push(obj as { endpoint: string }) }),
    });
    await engine.start();
    const stateBefore = await who.rest.nonceState(who.account);

    // 500 > 2 × 208: the allocator must roll twice although nothing ever lands on the venue.
    const outcomes = await Promise.all(Array.from({ length: 500 }, (_, i) => engine.execute(buy(`d-${i}`))));
    const offGrid = await engine.execute(
      placeLimit({ intentId: 'd-bad', strategy: 't', marketId: 1, side: 'buy', size: '0.000155', price: '30000' }),
    );

    expect(outcomes.map((o) => o.type)).toEqual(Array.from({ length: 500 }, () => 'dry_run'));
    expect(offGrid.type === 'refused' ? offGrid.refusal.rule : offGrid.type).toBe('size_step');
    const pairs = outcomes.map((o) => {
      const body = (o as Extract<IntentOutcome, { type: 'dry_run' }>).request.body as {
        permit: { nonce_anchor: string; nonce_bitmap_index: number; signature: string };
        size_steps: number;
      };
      expect(body.permit.signature.length).toBeGreaterThan(80);
      expect(body.size_steps).toBe(15); // 0.00015 at step 0.00001
      return `${body.permit.nonce_anchor}:${body.permit.nonce_bitmap_index}`;
    });
    expect(new Set(pairs).size).toBe(500);
    expect(new Set(pairs.map((p) => p.split(':')[0])).size).toBe(3);
    expect(logged).toHaveLength(500);
    expect(logged[0]?.endpoint).toBe('placeOrder');

    expect(await who.rest.nonceState(who.account)).toEqual(stateBefore);
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(0);
    await engine.stop();
  }, 30_000);

  it('two engines sharing one account through slots 0 and 1 of 2 land every intent with no nonce error and no pair twice', async () => {
    const who = await fundedAccount(sim);
    const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 10_000, rateLimit: false });
    const a = recordingSender(venueSender(rest));
    const b = recordingSender(venueSender(rest));
    const clock = new FrozenMsClock();
    const first = engineFor(who, { sender: a.sender, nonces: { slot: 0, slots: 2 }, clock, rest });
    const second = engineFor(who, { sender: b.sender, nonces: { slot: 1, slots: 2 }, clock, rest });
    await Promise.all([first.start(), second.start()]);

    // 64 each fits the 104 bits each slot has in one anchor, so neither process rolls.
    const fire = (engine: Engine, tag: string) =>
      Array.from({ length: 64 }, (_, i) => engine.execute(buy(`${tag}-${i}`, String(30000 + (i % 40)))));
    const outcomes = await Promise.all([...fire(first, 'a'), ...fire(second, 'b')]);

    expect(outcomes.filter((o) => o.type !== 'accepted')).toEqual([]);
    expect([...a.sends, ...b.sends].filter((s) => s.error !== undefined)).toEqual([]);
    expect(a.sends.every((s) => s.nonce !== undefined && s.nonce.bit % 2 === 0)).toBe(true);
    expect(b.sends.every((s) => s.nonce !== undefined && s.nonce.bit % 2 === 1)).toBe(true);
    const keys = [...a.sends, ...b.sends].map((s) => (s.nonce === undefined ? 'none' : noncePairKey(s.nonce)));
    expect(new Set(keys).size).toBe(128);
    const open = (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders;
    expect(open).toHaveLength(128);
    // Both started in the same millisecond: client order ids must still differ (confirmation looks them up).
    expect(new Set(open.map((o) => o.client_order_id?.toString())).size).toBe(128);
    await Promise.all([first.stop(), second.stop()]);
  }, 30_000);

  it('two engines sharing one account keep landing every intent, each pair once, when they roll anchors', async () => {
    const who = await fundedAccount(sim);
    const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 10_000, rateLimit: false });
    const a = recordingSender(venueSender(rest));
    const b = recordingSender(venueSender(rest));
    const first = engineFor(who, { sender: a.sender, nonces: { slot: 0, slots: 2 }, rest });
    const second = engineFor(who, { sender: b.sender, nonces: { slot: 1, slots: 2 }, rest });
    await Promise.all([first.start(), second.start()]);
    const before = await venueAnchor(who);

    // 110 each: more than the 104 bits a slot has per anchor, so both must roll.
    const fire = (engine: Engine, tag: string) =>
      Array.from({ length: 110 }, (_, i) => engine.execute(buy(`${tag}-${i}`, String(30000 + (i % 40)))));
    const outcomes = await Promise.all([...fire(first, 'a'), ...fire(second, 'b')]);

    expect(outcomes.filter((o) => o.type !== 'accepted')).toEqual([]);
    const orderIds = outcomes.map((o) => (o.type === 'accepted' ? o.orderId : undefined));
    expect(new Set(orderIds).size).toBe(220);
    // No pair landed twice. (Under load a send may time out and be confirmed through the open
    // orders instead, so fewer than 220 sends may have answered with success.)
    const landed = [...a.sends, ...b.sends]
      .filter((s) => s.error === undefined)
      .map((s) => (s.nonce === undefined ? 'none' : noncePairKey(s.nonce)));
    expect(new Set(landed).size).toBe(landed.length);
    expect((await venueAnchor(who)) - before).toBeGreaterThanOrEqual(2n);
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(220);
    await Promise.all([first.stop(), second.stop()]);
  }, 60_000);

  it('resyncs after another client consumed its next pairs (NonceUsed) and lands once', async () => {
    const who = await fundedAccount(sim);
    const rec = recordingSender(venueSender(who.rest));
    const engine = engineFor(who, { sender: rec.sender });
    await engine.start();
    const next = (await venueAnchor(who)) + 1n;
    for (const bit of [0, 1, 2]) await foreignCancelAll(who, { anchor: next, bit });

    const outcome = await engine.execute(buy('r-1'));

    expect(outcome.type).toBe('accepted');
    expect(rec.sends.map((s) => [s.nonce === undefined ? '' : noncePairKey(s.nonce), s.error ?? 'ok'])).toEqual([
      [noncePairKey({ anchor: next, bit: 0 }), 'NonceUsed'],
      [noncePairKey({ anchor: next, bit: 3 }), 'ok'], // bits 1 and 2 skipped: the bitmap shows them used
    ]);
    const open = (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders;
    expect(open.map((o) => o.order_id)).toEqual([outcome.type === 'accepted' ? outcome.orderId : '']);
    await engine.stop();
  });

  it('resyncs after another client moved the anchor past it (InvalidNonceAnchor) and lands once', async () => {
    const who = await fundedAccount(sim);
    const rec = recordingSender(venueSender(who.rest));
    const engine = engineFor(who, { sender: rec.sender });
    await engine.start();
    const start = await venueAnchor(who);
    await foreignCancelAll(who, { anchor: start + 1n, bit: 0 });
    await foreignCancelAll(who, { anchor: start + 2n, bit: 0 });

    const outcomes = [await engine.execute(buy('r-1')), await engine.execute(buy('r-2'))];

    expect(outcomes.map((o) => o.type)).toEqual(['accepted', 'accepted']);
    expect(rec.sends.map((s) => [s.nonce === undefined ? '' : noncePairKey(s.nonce), s.error ?? 'ok'])).toEqual([
      [noncePairKey({ anchor: start + 1n, bit: 0 }), 'InvalidNonceAnchor'],
      // Continues in the venue's current anchor (not current + 1) at the first bit it shows free.
      [noncePairKey({ anchor: start + 2n, bit: 1 }), 'ok'],
      [noncePairKey({ anchor: start + 2n, bit: 2 }), 'ok'],
    ]);
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(2);
    await engine.stop();
  });

  it('re-signs with a new nonce a permit whose deadline passed before it was sent, never sending it stale', async () => {
    sim.controls.setRegistrationLag(600);
    const who = await fundedAccount(sim, { skipLag: false });
    const clock = new ShiftedClock();
    // After the first refusal (registration lag), the engine's clock jumps past the permit deadline.
    const rec = recordingSender(venueSender(who.rest), clock, (_error, sends) => {
      if (sends.length === 1) clock.shiftMs = 120_000;
    });
    const engine = engineFor(who, { sender: rec.sender, clock });
    await engine.start();

    const outcome = await engine.execute(buy('dl-1'));

    expect(outcome.type).toBe('accepted');
    expect(rec.sends[0]?.error).toBe('AccountNotRegistered');
    const firstPair = rec.sends[0]?.nonce;
    expect(firstPair).toBeDefined();
    const later = rec.sends.slice(1);
    expect(later.length).toBeGreaterThan(0);
    expect(
      later.every(
        (s) => s.nonce !== undefined && firstPair !== undefined && noncePairKey(s.nonce) !== noncePairKey(firstPair),
      ),
    ).toBe(true);
    expect(rec.sends.filter((s) => s.deadline === undefined || s.deadline <= s.atSeconds)).toEqual([]);
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(1);
    await engine.stop();
  });

  it('confirms instead of resending when the deadline passed after a send with no definite answer', async () => {
    const who = await fundedAccount(sim);
    const clock = new ShiftedClock();
    // The first send executes but is answered with a 5xx; while the engine waits to resend, its
    // clock passes the permit deadline.
    const rec = recordingSender(venueSender(who.rest), clock, (_error, sends) => {
      if (sends.length === 1) {
        sim.controls.setFaults({ errorRate: 0 });
        clock.shiftAfterNextSleepMs = 120_000;
      }
    });
    const engine = engineFor(who, { sender: rec.sender, clock });
    await engine.start();
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });

    const outcome = await engine.execute(buy('dl-2'));

    expect(rec.sends).toHaveLength(1);
    const open = (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders;
    expect(open).toHaveLength(1);
    expect(outcome.type === 'accepted' ? outcome.orderId : outcome.type).toBe(open[0]?.order_id);
    await engine.stop();
  });

  it('on SignerNotAuthorized fails with the target hint, refreshes the system config and stops trading', async () => {
    const who = await fundedAccount(sim);
    let systemConfigReads = 0;
    const rest: RestClient = {
      ...who.rest,
      systemConfig: (options) => {
        systemConfigReads++;
        return who.rest.systemConfig(options);
      },
    };
    const rec = recordingSender(venueSender(who.rest));
    const engine = engineFor(who, { sender: rec.sender, rest });
    await engine.start();
    expect((await engine.execute(buy('s-1'))).type).toBe('accepted');
    expect(systemConfigReads).toBe(1);

    // The account key revokes the session key (spec "Revoke a signer").
    const nonceAnchor = await venueAnchor(who);
    const signature = await signTypedStruct(who.context, who.accountSigner, 'RevokeSigner', {
      account: who.account,
      signer: who.signer.address,
      nonceAnchor,
      nonceBitmap: 200,
    });
    await who.rest.revokeSigner({
      account: who.account,
      signer: who.signer.address,
      nonce_anchor: nonceAnchor.toString(),
      nonce_bitmap_index: 200,
      account_signature: signature,
    });
    expect((await who.rest.sessionKeyStatus({ account: who.account, signer: who.signer.address })).status).toBe(3);

    const refusals = await Promise.all(['s-2a', 's-2b', 's-2c'].map((id) => engine.execute(buy(id))));
    for (const refused of refusals) {
      expect(refused.type === 'failed' ? refused.error.kind : refused.type).toBe('SignerNotAuthorized');
      expect(refused.type === 'failed' ? refused.error.hints[0] : '').toMatch(/permit target is addresses\.router/);
    }
    expect(systemConfigReads).toBe(2); // refreshed once, however many intents hit the refusal
    expect(engine.tradingStopped).toMatch(/SignerNotAuthorized/);

    const sendsBefore = rec.sends.length;
    const later = await engine.execute(buy('s-3'));
    expect(later.type === 'refused' ? [later.refusal.rule, later.refusal.reason] : later.type).toEqual([
      'engine_stopped',
      expect.stringMatching(/SignerNotAuthorized/),
    ]);
    expect(rec.sends.length).toBe(sendsBefore);
    await engine.stop();
  });
});

/** The system clock, shifted forward on demand. */
class ShiftedClock implements Clock {
  shiftMs = 0;
  /** Added to `shiftMs` when the next sleep ends (time jumps while someone waits). */
  shiftAfterNextSleepMs = 0;
  now(): number {
    return Date.now() + this.shiftMs;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await systemClock.sleep(ms, signal);
    this.shiftMs += this.shiftAfterNextSleepMs;
    this.shiftAfterNextSleepMs = 0;
  }
}

/** Time stands still (two processes starting in the same millisecond); sleeps are real. */
class FrozenMsClock implements Clock {
  private readonly at = Date.now();
  now(): number {
    return this.at;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}
