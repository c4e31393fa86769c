import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { AccountState } from '../tracking/accountState.js';
import type { ActionSender } from './actionSender.js';
import type { EngineConfig } from '../engineConfig.js';
import type { InFlightTicket } from '../admission/inFlightActions.js';
import type { EngineJournal } from '../tracking/engineJournal.js';
import type { Intent } from '../intents/intents.js';
import type { LandingEvidence } from './landingEvidence.js';
import type { MarketView } from '../checks/marketView.js';
import type { NonceAllocator } from '../nonces/nonceAllocator.js';
import type { NonceState } from '../nonces/noncePair.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { Refusal } from '../intents/refusal.js';
import type { ResolvedAction } from './signedRequest.js';

/** How actions are authorised: a permit signed by the session key with a nonce, or the session's JWT. */
export type AuthSource =
  | {
      readonly mode: 'permit';
      readonly context: () => SigningContext;
      readonly signer: SignerLike;
      readonly allocator: NonceAllocator;
    }
  | { readonly mode: 'jwt' };

/** What the executor needs from the engine: its state, its venue reads, and its reactions. */
export interface ExecutorDeps {
  readonly account: Address;
  readonly config: EngineConfig;
  readonly selectors: SelectorTable;
  readonly auth: AuthSource;
  readonly sender: ActionSender;
  readonly tracker: OrderTracker;
  readonly clock: Clock;
  readonly log: Logger;
  readonly journal: EngineJournal;
  /** The market for the pre-trade checks, read at once and not kept (it may change as marks arrive). */
  market(marketId: number): MarketView | undefined;
  /**
   * Guards after the pre-trade checks, on the intent as checked (snapped to the grid): a refusal,
   * or a ticket (undefined: none) to proceed, reported begun once the tracker counts the action
   * and settled once it settled. May wait (rate limits, in-flight orders) or act (close first).
   */
  guard(intent: Intent, state: AccountState): Promise<Refusal | InFlightTicket | undefined>;
  /**
   * The guard's answer when it is known at once (nothing to wait for, nothing to close first),
   * with the same effects as `guard` giving it; undefined when it is not, and the executor awaits
   * `guard`. Optional: without it every intent awaits `guard`.
   */
  guardNow?(intent: Intent, state: AccountState): Refusal | InFlightTicket | undefined;
  /** Reads the venue's nonce state (for a resync). */
  readNonceState(): Promise<NonceState>;
  /** Finds the resting id of an order the tracker does not know (open-orders read). */
  lookupRestingId(marketId: number, orderId: string): Promise<bigint | undefined>;
  /**
   * After an ambiguous answer, what the venue's state shows about the first send: a placement by
   * its client_order_id (tracker, fills, open orders), a cancel by whether the order is still
   * open, leverage and margin mode from the position. Never throws: a failed read cannot tell.
   */
  readLandingEvidence(intent: Intent, action: ResolvedAction, signal?: AbortSignal): Promise<LandingEvidence>;
  /** The venue refused our signer: stop trading and refresh the system config (awaited before the outcome). */
  onSignerNotAuthorized(error: unknown): void | Promise<void>;
  /** Permit deadline in seconds from now. */
  readonly permitDeadlineSeconds: number;
  /** Resyncs allowed per intent before giving up. */
  readonly maxResyncs?: number;
}

/** An intent that ended without reaching the venue for a reason of ours (its outcome says which). */
export class IntentFailedError extends PerpbotError {}
