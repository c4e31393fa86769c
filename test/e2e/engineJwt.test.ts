import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { venueSender, type ActionSender, type BearerSource } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { JwtSession } from '../../src/engine/sending/jwtSession.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { VenueError } from '../../src/venue/venueError.js';
import { fundedAccount, grantAllowance, type SimAccount } from './support/simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** The system clock, shifted forward on demand: the simulator's, to age a JWT past its 900 s. */
class ShiftedClock implements Clock {
  shiftMs = 0;
  now(): number {
    return Date.now() + this.shiftMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}

/** Wraps a sender: counts sends, records the venue's refusals, and passes `reauthenticate` on. */
function counting(inner: ActionSender): ActionSender & { sends: number; errors: string[] } {
  const counted = {
    sends: 0,
    errors: [] as string[],
    async send(...args: Parameters<ActionSender['send']>) {
      counted.sends++;
      try {
        return await inner.send(...args);
      } catch (error) {
        counted.errors.push(error instanceof VenueError ? error.kind : String(error));
        throw error;
      }
    },
    ...(inner.reauthenticate === undefined ? {} : { reauthenticate: () => inner.reauthenticate?.() }),
  };
  return counted;
}

function jwtEngine(who: SimAccount, sender: ActionSender): Engine {
  return new Engine({
    account: who.account,
    signer: who.signer,
    rest: who.rest,
    sender,
    config: withEngineDefaults({ guards: { actionsPerSecond: 1000, actionBurst: 1000 } }),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log: quiet,
    markets: [1],
    authMode: 'jwt',
  });
}

const bid = (id: string) =>
  placeLimit({
    intentId: id,
    strategy: 't',
    marketId: 1,
    side: 'buy',
    size: '0.00015',
    price: '30000',
    postOnly: true,
  });

describe('engine in JWT mode: an Unauthenticated answer', () => {
  let sim: RunningSim;
  let simClock: ShiftedClock;
  beforeEach(async () => {
    simClock = new ShiftedClock();
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, clock: simClock });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('drops the token, logs in again and lands the intent (the venue expired the JWT before we expected)', async () => {
    const who = await fundedAccount(sim);
    await grantAllowance(who);
    // Our clock says the token is fresh; the venue's is 15 minutes ahead, so it has expired there.
    // The login deadline is far enough out for the venue's clock too.
    const session = new JwtSession({
      rest: who.rest,
      account: who.account,
      accountSigner: who.accountSigner,
      context: () => who.context,
      clock: systemClock,
      loginDeadlineSeconds: 3600,
    });
    const logins = vi.spyOn(who.rest, 'login');
    const sender = counting(venueSender(who.rest, session));
    const engine = jwtEngine(who, sender);
    await engine.start();
    expect((await engine.execute(bid('first'))).type).toBe('accepted');
    expect(logins).toHaveBeenCalledTimes(1);

    simClock.shiftMs = 901_000;
    const outcome = await engine.execute(bid('after-expiry'));
    expect(outcome.type).toBe('accepted');
    expect(sender.errors).toEqual(['Unauthenticated']);
    expect(sender.sends).toBe(3);
    expect(logins).toHaveBeenCalledTimes(2);
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(2);
    await engine.stop();
  });

  it('retries only once: a token refused again fails the intent with Unauthenticated', async () => {
    const who = await fundedAccount(sim);
    await grantAllowance(who);
    let invalidations = 0;
    const forged: BearerSource = { bearer: async () => 'not.a.token', invalidate: () => void invalidations++ };
    const sender = counting(venueSender(who.rest, forged));
    const engine = jwtEngine(who, sender);
    await engine.start();
    const outcome = await engine.execute(bid('forged'));
    expect(outcome.type === 'failed' ? outcome.error.kind : outcome.type).toBe('Unauthenticated');
    expect(sender.errors).toEqual(['Unauthenticated', 'Unauthenticated']);
    expect(invalidations).toBe(1);
    await engine.stop();
  });
});
