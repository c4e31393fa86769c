import type { Logger } from '../../core/logger.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { ActionSender } from './actionSender.js';
import type { EngineConfig } from '../config/engineConfig.js';
import type { Intent } from '../intents/intents.js';
import type { LandingEvidence } from './landingEvidence.js';
import type { NonceState } from '../nonces/noncePair.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { SigningDeps } from '../signing/signingDeps.js';

/** What the send stage needs from the engine: the signing, the sender, its venue reads and its reactions. */
export interface SendDeps extends SigningDeps {
  readonly config: EngineConfig;
  readonly sender: ActionSender;
  readonly tracker: OrderTracker;
  readonly log: Logger;
  /** Reads the venue's nonce state (for a resync). */
  readNonceState(): Promise<NonceState>;
  /**
   * After an ambiguous answer, what the venue's state shows about the first send: a placement by
   * its client_order_id (tracker, fills, open orders), a cancel by whether the order is still
   * open, leverage and margin mode from the position. Never throws: a failed read cannot tell.
   */
  readLandingEvidence(intent: Intent, action: ResolvedAction, signal?: AbortSignal): Promise<LandingEvidence>;
  /** The venue refused our signer: stop trading and refresh the system config (awaited before the outcome). */
  onSignerNotAuthorized(error: unknown): void | Promise<void>;
  /** Resyncs allowed per intent before giving up. */
  readonly maxResyncs?: number;
}

/** An intent that ended without reaching the venue for a reason of ours (its outcome says which). */
export class IntentFailedError extends PerpbotError {}
