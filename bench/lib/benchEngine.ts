import { systemClock } from '../../src/core/clock.js';
import type { ActionSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import type { EngineJournal } from '../../src/engine/tracking/engineJournal.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { PlaceLimitIntent } from '../../src/engine/intents/intents.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import type { BenchAccount } from './simAccount.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * An engine with guard limits far above what a burst needs, so the figures measure the engine's
 * work and the venue's answers, not a token bucket or an open-order cap.
 */
export function benchEngine(who: BenchAccount, sender: ActionSender, journal?: EngineJournal): Engine {
  return new Engine({
    ...(journal === undefined ? {} : { journal }),
    account: who.account,
    signer: who.signer,
    rest: who.rest,
    sender,
    config: withEngineDefaults({
      guards: {
        maxOpenOrders: 1_000_000,
        actionsPerSecond: 1_000_000,
        actionBurst: 1_000_000,
        maxOrderNotional: '100000',
        maxPositionNotional: '1000000000',
        killSwitchMaxLoss: '100000',
      },
    }),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log: silent,
    markets: [1],
  });
}

/**
 * The bench's order: a post-only BTC bid at the minimum size, far below the simulator's mark
 * (65,000), so it rests instead of trading and every order costs the same on the venue.
 */
export function restingBid(i: number, run: string): PlaceLimitIntent {
  return placeLimit({
    intentId: `${run}-${i}`,
    strategy: 'bench',
    marketId: 1,
    side: 'buy',
    size: '0.00015',
    price: (30_000 + (i % 50)).toString(),
    postOnly: true,
  });
}
