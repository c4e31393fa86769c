import { systemClock, type Clock } from '../../../src/core/clock.js';
import { venueSender, type ActionSender } from '../../../src/engine/sending/actionSender.js';
import { Engine } from '../../../src/engine/engine.js';
import {
  withEngineDefaults,
  type GuardConfig,
  type NonceConfig,
  type RetryConfig,
} from '../../../src/engine/config/engineConfig.js';
import type { EngineJournal } from '../../../src/engine/tracking/engineJournal.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import type { SimAccount } from './simAccount.js';

export const quietLog = { debug() {}, info() {}, warn() {}, error() {} };

export interface EngineOnSimOptions {
  readonly sender?: ActionSender;
  /** The engine's reads (the sender still sends through the account's own client). */
  readonly rest?: RestClient;
  /** Overrides of the guards; every limit not named is out of the way. */
  readonly guards?: Partial<GuardConfig>;
  readonly retry?: Partial<RetryConfig>;
  readonly nonces?: NonceConfig;
  readonly markets?: readonly number[];
  readonly maxGuardWaitMs?: number;
  readonly journal?: EngineJournal;
  readonly clock?: Clock;
}

/** An engine for a simulator account with every risk limit out of the way but the ones a test names. */
export function engineOnSim(who: SimAccount, options: EngineOnSimOptions = {}): Engine {
  return new Engine({
    account: who.account,
    signer: who.signer,
    rest: options.rest ?? who.rest,
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
      ...(options.nonces === undefined ? {} : { nonces: options.nonces }),
    }),
    selectors: SPEC_SELECTORS,
    clock: options.clock ?? systemClock,
    log: quietLog,
    markets: [...(options.markets ?? [1])],
    ...(options.maxGuardWaitMs === undefined ? {} : { maxGuardWaitMs: options.maxGuardWaitMs }),
    ...(options.journal === undefined ? {} : { journal: options.journal }),
  });
}
