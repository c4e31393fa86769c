import { systemClock } from '../../../src/core/clock.js';
import { Engine } from '../../../src/engine/engine.js';
import { withEngineDefaults } from '../../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../../src/engine/intents/intentOutcome.js';
import { venueSender } from '../../../src/engine/sending/actionSender.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { RunningSim } from '../../../src/sim/startSim.js';
import { fundedAccount, type SimAccount } from './simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Another trader on the same simulator, without a journal: a funded account and a started engine
 * with no action budget to speak of, to take the other side of a test bot's orders.
 */
export async function startCounterparty(sim: RunningSim): Promise<{ who: SimAccount; engine: Engine }> {
  const who = await fundedAccount(sim);
  const engine = new Engine({
    account: who.account,
    signer: who.signer,
    rest: who.rest,
    sender: venueSender(who.rest),
    config: withEngineDefaults({ guards: { actionsPerSecond: 10_000, actionBurst: 10_000 } }),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log: quiet,
    markets: [1],
  });
  await engine.start();
  return { who, engine };
}

/** The counterparty sells `size` immediate-or-cancel into the bids at `price` or better (the probe's bid at 64000). */
export function sellInto(engine: Engine, price = '64000', size = '0.0005'): Promise<IntentOutcome> {
  return engine.execute(
    placeLimit({ intentId: 'hit', strategy: 'x', marketId: 1, side: 'sell', size, price, timeInForce: 'IOC' }),
  );
}
