import { systemClock } from '../../../src/core/clock.js';
import { venueSender, type ActionSender } from '../../../src/engine/sending/actionSender.js';
import { Engine } from '../../../src/engine/engine.js';
import { withEngineDefaults, type GuardConfig, type RetryConfig } from '../../../src/engine/engineConfig.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { SimAccount } from './simAccount.js';

export const quietLog = { debug() {}, info() {}, warn() {}, error() {} };

export interface EngineOnSimOptions {
  readonly sender?: ActionSender;
  /** Overrides of the guards; every limit not named is out of the way. */
  readonly guards?: Partial<GuardConfig>;
  readonly retry?: Partial<RetryConfig>;
  readonly markets?: readonly number[];
  readonly maxGuardWaitMs?: number;
}

/** An engine for a simulator account with every risk limit out of the way but the ones a test names. */
export function engineOnSim(who: SimAccount, options: EngineOnSimOptions = {}): Engine {
  return new Engine({
    account: who.account,
    signer: who.signer,
    rest: who.rest,
    sender: options.sender ?? venueSender(who.rest),
    config: withEngineDefaults({
      guards: {
        maxOpenOrders: 100,
        actionsPerSecond: 1000,
        actionBurst: 1000,
        maxOrderNotional: '100000',
        maxPositionNotional: '1000000',
        killSwitchMaxLoss: '100000',
        ...options.guards,
      },
      ...(options.retry === undefined ? {} : { retry: options.retry }),
    }),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log: quietLog,
    markets: [...(options.markets ?? [1])],
    ...(options.maxGuardWaitMs === undefined ? {} : { maxGuardWaitMs: options.maxGuardWaitMs }),
  });
}
