import { cancel as cancelIntent } from '../intents/intentBuilders.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent, PlaceLimitIntent, ReplaceIntent, ReplaceMode } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { isTerminal, type TrackedOrder } from '../orders/trackedOrder.js';
import type { SendHold } from '../nonces/nonceStage.js';
import type { LivePlacements } from './livePlacements.js';

/** What a replacement needs of the engine. */
export interface ReplaceDeps {
  readonly tracker: OrderTracker;
  readonly placements: LivePlacements;
  /** The old order's cancel, through the whole engine (journaled, its outcome published), sent when `hold` allows. */
  execute(intent: Intent, hold?: SendHold): Promise<IntentOutcome>;
  /** The new order's placement as the replace intent's own order (its outcome the replace's), sent on `hold`. */
  place(placement: PlaceLimitIntent, hold?: SendHold): Promise<IntentOutcome>;
  /** Whether the account's margin covers the new order while the old one still rests. */
  marginCoversBoth(placement: PlaceLimitIntent): boolean;
  now(): number;
}

/** The live limit order a replace names, or why there is none to replace. */
export function replaceTarget(intent: ReplaceIntent, tracker: OrderTracker): TrackedOrder | Refusal {
  const order =
    'intentId' in intent.target ? tracker.order(intent.target.intentId) : tracker.orderByOrderId(intent.target.orderId);
  const named = 'intentId' in intent.target ? intent.target.intentId : intent.target.orderId;
  if (order === undefined) return refusal('replace_target', named, 'no order of this process has that id');
  if (order.market === true) return refusal('replace_target', named, 'a market order cannot be replaced');
  if (order.marketId !== intent.marketId)
    return refusal('replace_target', named, `the order is in market ${order.marketId}, not in ${intent.marketId}`);
  if (isTerminal(order.state) || tracker.cancelRequested(order.intentId))
    return refusal(
      'replace_target',
      named,
      `the order is ${tracker.cancelRequested(order.intentId) ? 'being cancelled' : order.state}`,
    );
  return order;
}

/**
 * The new order of a replace: the old order's side and terms (its limit intent's time in force,
 * post-only, reduce-only, self-trade mode and roundings, when this process placed it) at the new
 * price and size, as the replace intent's own order.
 */
export function replacementOf(
  intent: ReplaceIntent,
  old: TrackedOrder,
  oldIntent?: PlaceLimitIntent,
): PlaceLimitIntent {
  const placement = newTerms(intent, old, oldIntent);
  const priceRounding = intent.priceRounding ?? (intent.price === undefined ? oldIntent?.priceRounding : undefined);
  const sizeRounding = intent.sizeRounding ?? (intent.size === undefined ? oldIntent?.sizeRounding : undefined);
  if (priceRounding !== undefined) placement.priceRounding = priceRounding;
  if (sizeRounding !== undefined) placement.sizeRounding = sizeRounding;
  if (oldIntent?.stpMode !== undefined) placement.stpMode = oldIntent.stpMode;
  if (oldIntent?.ttlUnits !== undefined) placement.ttlUnits = oldIntent.ttlUnits;
  return placement;
}

function newTerms(
  intent: ReplaceIntent,
  old: TrackedOrder,
  oldIntent: PlaceLimitIntent | undefined,
): { -readonly [K in keyof PlaceLimitIntent]: PlaceLimitIntent[K] } {
  return {
    kind: 'placeLimit',
    intentId: intent.intentId,
    strategy: intent.strategy,
    marketId: old.marketId,
    side: old.side,
    size: intent.size ?? old.size,
    price: intent.price ?? old.price,
    timeInForce: oldIntent?.timeInForce ?? 'GTC',
    postOnly: intent.postOnly ?? oldIntent?.postOnly ?? false,
    reduceOnly: intent.reduceOnly ?? oldIntent?.reduceOnly ?? false,
  };
}

/** The mode a replacement runs in: make-before-break only where the margin covers both orders. */
export function replaceModeOf(asked: ReplaceMode | undefined, marginCoversBoth: () => boolean): ReplaceMode {
  if (asked === 'break_before_make') return 'break_before_make';
  return marginCoversBoth() ? 'make_before_break' : 'break_before_make';
}

/**
 * Runs a replacement of a resting order, both actions checked and admitted side by side and the
 * second signed and sent the moment the first's answer allows (the nonce bitmap lets both be in
 * flight): make-before-break sends the new order and then the old one's cancel once the venue took
 * the new; break-before-make sends the cancel and then the new order once the old one is gone
 * (nothing new when it filled first, or its cancel did not go through). The outcome is the new
 * order's, as the replace's.
 */
export async function runReplace(
  intent: ReplaceIntent,
  placement: PlaceLimitIntent,
  old: TrackedOrder,
  deps: ReplaceDeps,
): Promise<IntentOutcome> {
  if (replaceModeOf(intent.mode, () => deps.marginCoversBoth(placement)) === 'make_before_break') {
    let placedThen: (outcome: IntentOutcome) => void = () => undefined;
    const placed = new Promise<IntentOutcome>((resolve) => (placedThen = resolve));
    // A new order refused or failed leaves the old one resting: better than an empty level.
    const cancelled = cancelOld(
      intent,
      old,
      deps,
      placed.then((outcome) => refusalAfterPlace(outcome, old)),
    );
    // Held by nothing: the new order goes first, not behind the strategy's cancels (its own among them).
    const outcome = await deps.place(placement, Promise.resolve(undefined));
    placedThen(outcome);
    await cancelled;
    return asReplace(outcome);
  }
  const cancelled = cancelOld(intent, old, deps);
  const outcome = await deps.place(
    placement,
    cancelled.then((c) => refusalAfterCancel(c, deps.tracker.order(old.intentId))),
  );
  await cancelled;
  return asReplace(outcome);
}

/** The old order's cancel, sent when `hold` allows (a module function: no closure per replace). */
function cancelOld(
  intent: ReplaceIntent,
  old: TrackedOrder,
  deps: ReplaceDeps,
  hold?: SendHold,
): Promise<IntentOutcome> {
  return deps.execute(
    cancelIntent({
      intentId: `${intent.intentId}.cancel`,
      strategy: intent.strategy,
      marketId: old.marketId,
      target: { intentId: old.intentId },
    }),
    hold,
  );
}

/** Why the old order's cancel must not go after the new order's placement; undefined once the venue took it. */
function refusalAfterPlace(placed: IntentOutcome, old: TrackedOrder): Refusal | undefined {
  if (placed.type === 'accepted' || placed.type === 'unknown' || placed.type === 'dry_run') return undefined;
  return refusal(
    'replacement_not_placed',
    old.intentId,
    `the new order ended ${placed.type}: the old one stays on the book`,
    'replace it again, or cancel it',
  );
}

/** Why the new order must not go after the old one's cancel; undefined when the old one is gone (or partly filled). */
function refusalAfterCancel(cancelled: IntentOutcome, old: TrackedOrder | undefined): Refusal | undefined {
  if (old?.state === 'filled')
    return refusal(
      'replace_target_finished',
      old.intentId,
      'the old order filled before it could be cancelled: nothing new was placed',
      'quote again from the position it left',
    );
  const gone =
    cancelled.type === 'accepted' ||
    cancelled.type === 'dry_run' ||
    (cancelled.type === 'refused' && cancelled.refusal.rule === 'cancel_target_finished');
  if (gone) return undefined;
  return refusal(
    'replace_cancel_failed',
    old?.intentId ?? cancelled.intentId,
    `the old order's cancel ended ${cancelled.type}: nothing new was placed while it may still rest`,
    'look at the order (ctx.state.openOrders) before asking again',
  );
}

function asReplace(outcome: IntentOutcome): IntentOutcome {
  return { ...outcome, kind: 'replace' };
}
