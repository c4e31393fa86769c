import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import { acceptCancel } from './acceptCancel.js';
import { acceptCancelAll } from './acceptCancelAll.js';
import type { AcceptDeps } from './acceptDeps.js';
import { acceptPlacement } from './acceptPlacement.js';

export type { AcceptDeps } from './acceptDeps.js';

/**
 * The accept stage, the order model's part of an intent as it arrives, one kind a file: a
 * placement is queued; a cancel marks its target asked to go (and ends it at once when it is still
 * queued: the cancel's outcome then); a cancel-all does so for every order of its market; a
 * replacement is the quoting's. Returns the intent's outcome when it goes no further.
 */
export function acceptIntent(intent: Intent, deps: AcceptDeps): IntentOutcome | undefined {
  switch (intent.kind) {
    case 'placeLimit':
    case 'placeMarket':
    case 'closePosition':
      acceptPlacement(intent, deps);
      return undefined;
    case 'cancel':
      return acceptCancel(intent, deps);
    case 'cancelAll':
      acceptCancelAll(intent, deps);
      return undefined;
    case 'replace':
      return deps.arrivedReplace(intent);
    case 'setLeverage':
    case 'setMarginMode':
    case 'adjustIsolatedMargin':
    case 'quote':
    case 'protect':
    case 'bracket':
      return undefined;
  }
}
