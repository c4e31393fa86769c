import { cancelledWhileQueued } from '../intents/cancelledWhileQueued.js';
import type { Checked } from '../checks/checkStage.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { AccountState } from '../tracking/accountState.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { InFlightTicket } from './inFlightActions.js';

export interface AdmissionStageDeps {
  readonly tracker: OrderTracker;
  /**
   * Admission on the intent as checked (snapped to the grid): a refusal, or a ticket (undefined:
   * none) that counts the action in flight until the pipeline settles it. May wait (rate limits,
   * in-flight orders) or act (close first).
   */
  admit(intent: Intent, state: AccountState): Promise<Refusal | InFlightTicket | undefined>;
  /**
   * The admission's answer when it is known at once, with the same effects as `admit` giving it;
   * undefined when it is not, and the stage awaits `admit`. Optional: without it every intent awaits.
   */
  admitNow?(intent: Intent, state: AccountState): Refusal | InFlightTicket | undefined;
}

/**
 * The admission stage's answer. `ticket` is held in flight until the intent ends, whatever the
 * answer (the pipeline's one `finally` settles it). `orderEnded`: the refusal found the order
 * already ended in the model (cancelled while it waited), which is told nothing more.
 */
export interface Admission {
  readonly ticket: InFlightTicket | undefined;
  readonly refusal?: Refusal;
  readonly orderEnded?: true;
}

const NO_TICKET: Admission = { ticket: undefined };

/**
 * The admission stage: the strategy's budget, the account's limits and rate, then a placement is
 * in flight in the order model (`submitted`, with its size and price as checked). Decided at once
 * when nothing has to be waited for: no microtask hop on an order's way out.
 */
export function admissionStage(checked: Checked, deps: AdmissionStageDeps): Admission | Promise<Admission> {
  const now = deps.admitNow?.(checked.intent, checked.state);
  if (now !== undefined) return admitted(checked, now, deps.tracker);
  return deps.admit(checked.intent, checked.state).then((answer) => admitted(checked, answer, deps.tracker));
}

function admitted(checked: Checked, answer: Refusal | InFlightTicket | undefined, tracker: OrderTracker): Admission {
  if (answer !== undefined && 'rule' in answer) return { ticket: undefined, refusal: answer };
  const action = checked.action;
  if (action.action === 'placeOrder' && !markSubmitted(checked.intent, action, tracker))
    // Cancelled in the moment between its admission and here: nothing is sent.
    return { ticket: answer, refusal: cancelledWhileQueued(checked.intent), orderEnded: true };
  return answer === undefined ? NO_TICKET : { ticket: answer };
}

/**
 * The placement is about to be signed and sent: in flight in the order model, with its size and
 * price as checked. False when the order was cancelled while it was queued: it must not go.
 */
function markSubmitted(
  intent: Intent,
  action: Extract<ResolvedAction, { action: 'placeOrder' }>,
  tracker: OrderTracker,
): boolean {
  if (tracker.order(intent.intentId)?.state === 'cancelled') return false;
  const order: Parameters<OrderTracker['submitted']>[0] = {
    intentId: intent.intentId,
    strategy: intent.strategy,
    marketId: intent.marketId,
    side: action.order.side === 0 ? 'buy' : 'sell',
    size: action.size,
    price: action.price,
  };
  const clientOrderId = action.order.client_order_id;
  tracker.submitted(clientOrderId === undefined ? order : Object.assign(order, { clientOrderId }));
  return true;
}
