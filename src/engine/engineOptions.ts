import type { Address } from '../core/address.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { SignerLike } from '../protocol/digestSigner.js';
import type { SelectorTable } from '../protocol/selectors.js';
import type { RestClient } from '../venue/rest/restClient.js';
import type { BudgetsConfig } from './admission/strategyBudgets.js';
import type { EngineConfig } from './config/engineConfig.js';
import type { Intent } from './intents/intents.js';
import type { NoncePair } from './nonces/noncePair.js';
import type { ActionSender } from './sending/actionSender.js';
import type { EngineJournal } from './tracking/engineJournal.js';

export interface EngineOptions {
  readonly account: Address;
  readonly signer: SignerLike;
  readonly rest: RestClient;
  readonly sender: ActionSender;
  readonly config: EngineConfig;
  readonly selectors: SelectorTable;
  readonly clock: Clock;
  readonly log: Logger;
  /** Markets to reconcile (open orders, positions); all markets when absent. */
  readonly markets?: readonly number[];
  readonly permitDeadlineSeconds?: number;
  /**
   * Longest an intent waits on admission (its strategy's budget, the account's rate limit,
   * in-flight orders) before it is refused (`guard_wait_timeout`); default 30 s.
   */
  readonly maxGuardWaitMs?: number;
  /** Each strategy's budget (its `risk:` block), judged after the pre-trade checks and before the account's limits. */
  readonly budgets?: BudgetsConfig;
  /** The highest nonce pair a previous run handed out (from the journal). */
  readonly restoredNonceHighWater?: NoncePair;
  /** Durable record of intents, nonces, requests, responses and outcomes (default: none). */
  readonly journal?: EngineJournal;
  /**
   * Permit (default): every action signed by the session key with a nonce. JWT: actions carry the
   * session's Bearer token and no permit (the sender adds the header: `venueSender(rest, session)`;
   * after an Unauthenticated answer it drops the token and the request is sent once more with a
   * fresh login); needs an operator-hub allowance (approve-single) on the venue.
   */
  readonly authMode?: 'permit' | 'jwt';
  /**
   * A flight's replay only: what a placement waits for before its admission (the time the recorded
   * engine admitted it); undefined to go on at once.
   */
  readonly admissionHold?: (intent: Intent) => Promise<void> | undefined;
}
