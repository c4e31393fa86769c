import { systemClock } from '../../../src/core/clock.js';
import { Engine } from '../../../src/engine/engine.js';
import { withEngineDefaults } from '../../../src/engine/engineConfig.js';
import { venueSender, type ActionSender } from '../../../src/engine/sending/actionSender.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { RunningSim } from '../../../src/sim/startSim.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../../../src/venue/ws/wsAuthenticatorFromRest.js';
import type { SimAccount } from './simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** An engine on market 1 whose guards never get in a test's way, sending straight to the simulator (or through `sender`). */
export function roomyEngineFor(who: SimAccount, sender: ActionSender = venueSender(who.rest)): Engine {
  return new Engine({
    account: who.account,
    signer: who.signer,
    rest: who.rest,
    sender,
    config: withEngineDefaults({
      guards: {
        maxOpenOrders: 100,
        actionsPerSecond: 1000,
        actionBurst: 1000,
        maxOrderNotional: '100000',
        maxPositionNotional: '1000000',
        killSwitchMaxLoss: '100000',
      },
    }),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log: quiet,
    markets: [1],
  });
}

/**
 * The account's WebSocket client for the engine's private feeds. No blocks are mined in these
 * tests, so no oracle messages: the silence watchdog stays off.
 */
export function privateFeedsClient(sim: RunningSim, who: SimAccount, engine: Engine): VenueWsClient {
  return new VenueWsClient({
    reconnect: { baseMs: 20, maxMs: 100 },
    url: sim.wsUrl,
    knownMarketIds: async () => engine.markets().map((m) => Number(m.market_id)),
    authenticator: wsAuthenticatorFromRest({
      rest: who.rest,
      context: who.context,
      account: who.account,
      signer: who.signer,
    }),
    staleAfterBlocks: 0,
  });
}
