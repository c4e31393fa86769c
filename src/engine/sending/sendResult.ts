import type { Refusal } from '../intents/refusal.js';
import type { SendReceipt } from './actionSender.js';
import type { IntentFailedError } from './sendDeps.js';
import type { SignedRequest } from '../signing/signedRequest.js';

/** How a send ended: accepted, failed, or unknown (it may have executed). */
export type SendResult =
  | { type: 'accepted'; receipt: SendReceipt; request: SignedRequest }
  | { type: 'failed'; error: unknown }
  /** It may have executed and the venue's state does not show whether (error code OUTCOME_UNCONFIRMED). */
  | { type: 'unknown'; error: IntentFailedError }
  /** Never signed or sent: the hold said no (`SendHold`). */
  | { type: 'withheld'; refusal: Refusal };
