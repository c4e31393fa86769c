import type { InFlightTicket } from '../admission/inFlightActions.js';
import type { MarketView } from '../checks/marketView.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { SendDeps } from '../sending/sendDeps.js';
import type { CancelLookup } from '../signing/resolveCancel.js';
import type { AccountState } from '../tracking/accountState.js';

/** What the stages of one intent need from the engine, built once per signing context and allocator. */
export interface PipelineDeps extends SendDeps, CancelLookup {
  /** The market for the pre-trade checks, read at once and not kept (it may change as marks arrive). */
  market(marketId: number): MarketView | undefined;
  /**
   * Admission after the pre-trade checks, on the intent as checked (snapped to the grid): a
   * refusal, or a ticket (undefined: none) that counts the action in flight until the pipeline
   * settles it. May wait (rate limits, in-flight orders) or act (close first).
   */
  admit(intent: Intent, state: AccountState): Promise<Refusal | InFlightTicket | undefined>;
  /**
   * The admission's answer when it is known at once, with the same effects as `admit` giving it;
   * undefined when it is not, and the pipeline awaits `admit`. Optional: without it every intent awaits.
   */
  admitNow?(intent: Intent, state: AccountState): Refusal | InFlightTicket | undefined;
}
