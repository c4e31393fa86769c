import type { MarketView } from '../checks/marketView.js';
import { cancel, placeLimit, replace } from '../intents/intentBuilders.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent, QuoteIntent, QuoteOrder } from '../intents/intents.js';
import { refusal, type Refusal, type RefusalRule } from '../intents/refusal.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { isResting, type TrackedOrder } from '../orders/trackedOrder.js';
import { gridUnits } from './gridUnits.js';
import type { LivePlacements } from './livePlacements.js';
import { planQuotes, type LiveQuote, type QuotePlan, type WantedQuote } from './quotePlan.js';
import { StrategyMarketMap } from '../tracking/strategyMarketMap.js';

/** What the keeper needs of the engine. */
export interface QuoteKeeperDeps {
  readonly tracker: OrderTracker;
  readonly placements: LivePlacements;
  market(marketId: number): MarketView | undefined;
  /** An action of the target's (a place, a replace, a cancel) through the whole engine. */
  execute(intent: Intent): Promise<IntentOutcome>;
  /** Why the strategy may not open anything now; undefined while it may. */
  notTrading(strategy: string, intent: Intent): Refusal | undefined;
  now(): number;
  /** An action ended without an outcome (a fault of the engine's own): logged. */
  onError(error: unknown, intentId: string): void;
}

/** A target as the keeper holds it, with what it took to reach. */
export interface KeptTarget {
  readonly intent: QuoteIntent;
  /** Each wanted order on the grid, in the target's order. */
  readonly wanted: readonly WantedQuote[];
  /** The actions it sent (a replacement counts two: its place and its cancel). */
  actions: number;
  /** Its actions' intent ids so far (`<quote id>.<n>`). */
  sent: number;
}

/**
 * The engine's part of `ctx.intents.quote(...)`: per strategy and market, the latest target, and the
 * actions from what rests to it (`planQuotes`): kept orders untouched, replacements in the target's
 * mode, new orders placed, the rest cancelled, each action an intent of its own through the whole
 * engine (checks, budget, admission, nonce, signature, tracking, journal). Orders it is retiring (a
 * cancel or replacement on its way) are not offered to the next target. While the strategy may not
 * open (degraded, halted, stopped) only the cancels go, and the target is refused with the reason.
 */
export class QuoteKeeper {
  private readonly targets = new StrategyMarketMap<KeptTarget>();
  private readonly retiring = new Set<string>();
  /** Orders being moved by a replacement: they stand for their wanted order until they are off the book. */
  private readonly moving = new Set<string>();

  constructor(private readonly deps: QuoteKeeperDeps) {}

  /** The latest target of a strategy on a market. */
  target(strategy: string, marketId: number): KeptTarget | undefined {
    return this.targets.get(strategy, marketId);
  }

  /** Every target held, by strategy and market. */
  all(): IterableIterator<KeptTarget> {
    return this.targets.values();
  }

  /**
   * The strategy stopped (or every strategy did: no name): its targets are dropped, so nothing
   * more is sent for them (a replacement refused meanwhile plans nothing again).
   */
  forget(strategy?: string): void {
    for (const { strategy: of, marketId } of this.targets.entries())
      if (strategy === undefined || of === strategy) this.targets.delete(of, marketId);
  }

  /** The order ended: nothing retires it any longer. */
  ended(intentId: string): void {
    this.retiring.delete(intentId);
    this.moving.delete(intentId);
  }

  /** Whether a replacement is moving this order (it still rests until its cancel lands). */
  isMoving(intentId: string): boolean {
    return this.moving.has(intentId);
  }

  /** Takes a target, sends what it takes, and answers the quote intent. */
  take(intent: QuoteIntent): IntentOutcome {
    const market = this.deps.market(intent.marketId);
    if (market === undefined) return this.outcome(intent, refusal('market_id', intent.marketId, 'no such market'));
    const wanted = wantedOf(intent, market);
    if (!Array.isArray(wanted)) return this.outcome(intent, wanted);
    const target: KeptTarget = { intent, wanted, actions: 0, sent: 0 };
    this.targets.set(intent.strategy, intent.marketId, target);
    return this.outcome(intent, this.converge(target, market));
  }

  /** Plans the target against what is live now and sends the plan; the reason opening is refused, if it is. */
  private converge(target: KeptTarget, market: MarketView): Refusal | undefined {
    const { intent } = target;
    const plan = planQuotes(target.wanted, this.liveQuotes(intent, market));
    const blocked = this.deps.notTrading(intent.strategy, intent);
    target.actions += this.send(target, plan, blocked === undefined);
    return blocked;
  }

  /**
   * A replacement of the target found its old order gone (filled first) or could not cancel it:
   * its new order never went, so the latest target of that market is planned again now rather
   * than at the strategy's next one. A refused placement is not retried here (a post-only quote
   * that would cross would only cross again).
   */
  private replan(strategy: string, marketId: number): void {
    const target = this.targets.get(strategy, marketId);
    const market = this.deps.market(marketId);
    if (target !== undefined && market !== undefined) this.converge(target, market);
  }

  /** The strategy's live limit orders in the market that a target may keep or move. */
  private liveQuotes(intent: QuoteIntent, market: MarketView): LiveQuote[] {
    const { tracker, placements } = this.deps;
    const tick = market.config.step_price;
    const step = market.config.step_size;
    const out: LiveQuote[] = [];
    for (const o of tracker.openOrders({ strategy: intent.strategy, marketId: intent.marketId })) {
      if (!offered(o) || this.retiring.has(o.intentId) || tracker.cancelRequested(o.intentId)) continue;
      const placed = placements.get(o.intentId);
      const ticks = gridUnits(placed?.price ?? o.price, tick, placed?.priceRounding ?? 'nearest');
      const left = gridUnits(o.size, step, placed?.sizeRounding ?? 'nearest');
      const filled = gridUnits(o.filledSize, step, 'nearest');
      if (ticks === undefined || left === undefined || filled === undefined) continue;
      out.push({ intentId: o.intentId, side: o.side, ticks, remainingSteps: left - filled });
    }
    return out;
  }

  /** Sends the plan's actions (only its cancels when the strategy may not open); returns how many went. */
  private send(kept: KeptTarget, plan: QuotePlan, opening: boolean): number {
    const { intent } = kept;
    const { strategy, marketId } = intent;
    for (const live of plan.cancel) {
      this.retiring.add(live);
      this.run(cancel({ intentId: nextActionId(kept), strategy, marketId, target: { intentId: live } }));
    }
    let actions = plan.cancel.length;
    if (!opening) return actions;
    for (const r of plan.replace) {
      const order = intent.orders[r.wanted] as QuoteOrder;
      this.retiring.add(r.live);
      this.moving.add(r.live);
      const target = { intentId: r.live };
      const mode = intent.mode === undefined ? {} : { mode: intent.mode };
      this.run(
        replace({ ...orderTerms(order), ...mode, intentId: nextActionId(kept), strategy, marketId, target }),
        r.live,
      );
      actions += 2;
    }
    for (const index of plan.place) {
      const order = intent.orders[index] as QuoteOrder;
      this.run(
        placeLimit({ ...orderTerms(order), side: order.side, intentId: nextActionId(kept), strategy, marketId }),
      );
      actions += 1;
    }
    return actions;
  }

  /**
   * Runs one action. A replacement that left its old order resting without a cancel (its new order
   * refused under make-before-break) hands the old one back to the next target.
   */
  private run(action: Intent, replacing?: string): void {
    this.deps.execute(action).then(
      (outcome) => {
        if (replacing === undefined) return;
        if (!this.deps.tracker.cancelRequested(replacing)) {
          this.retiring.delete(replacing);
          this.moving.delete(replacing);
        }
        if (outcome.type === 'refused' && REPLAN_AFTER.has(outcome.refusal.rule))
          this.replan(action.strategy, action.marketId);
      },
      (error: unknown) => this.deps.onError(error, action.intentId),
    );
  }

  private outcome(intent: QuoteIntent, refused: Refusal | undefined): IntentOutcome {
    const { intentId, strategy, marketId } = intent;
    const atMs = this.deps.now();
    if (refused === undefined) return { intentId, strategy, kind: 'quote', marketId, type: 'accepted', atMs };
    return { intentId, strategy, kind: 'quote', marketId, type: 'refused', refusal: refused, atMs };
  }
}

/** A replacement refused for these left its slot empty with nothing on its way: plan the target again. */
const REPLAN_AFTER: ReadonlySet<RefusalRule> = new Set(['replace_target_finished', 'replace_cancel_failed']);

/**
 * The next action's intent id of a target (`<quote id>.<n>`). A module function, not a closure made
 * in `send`: tsx names every closure it makes (a `__name` call on each send).
 */
function nextActionId(kept: KeptTarget): string {
  return `${kept.intent.intentId}.${++kept.sent}`;
}

/** Orders a target may keep or move: limit orders on their way or resting (not one sent without an answer). */
function offered(o: TrackedOrder): boolean {
  return o.market !== true && (o.state === 'queued' || o.state === 'submitted' || isResting(o.state));
}

/** The target's orders on the market's grid, or the first that is not on it (a price off the tick with no rounding). */
function wantedOf(intent: QuoteIntent, market: MarketView): WantedQuote[] | Refusal {
  const { step_price: tick, step_size: step } = market.config;
  const out: WantedQuote[] = [];
  for (const [index, o] of intent.orders.entries()) {
    const ticks = gridUnits(o.price, tick, o.priceRounding);
    const steps = gridUnits(o.size, step, o.sizeRounding);
    if (ticks === undefined || ticks <= 0n) return offGrid(index, 'price', o.price, tick);
    if (steps === undefined || steps <= 0n) return offGrid(index, 'size', o.size, step);
    const keepPartial = intent.tolerance?.partial === true;
    out.push({ index, side: o.side, ticks, steps, toleranceTicks: toleranceTicks(intent, ticks), keepPartial });
  }
  return out;
}

function offGrid(index: number, field: 'price' | 'size', value: string, unit: string): Refusal {
  const rounding = field === 'price' ? 'priceRounding' : 'sizeRounding';
  const grid = field === 'price' ? 'tick' : 'step';
  return refusal(
    'quote_target',
    value,
    `orders[${index}].${field} is not a positive ${field} on the ${grid} ${unit}`,
    `name ${rounding} to snap it`,
  );
}

/** The larger of the target's tolerances, in whole ticks (bps of the wanted price, rounded down). */
function toleranceTicks(intent: QuoteIntent, ticks: bigint): bigint {
  const byTicks = BigInt(Math.max(0, Math.floor(intent.tolerance?.ticks ?? 0)));
  const bps = intent.tolerance?.bps ?? 0;
  // ticks × bps / 10 000, in hundredths of a bp so a fractional bps setting counts.
  const byBps = bps > 0 ? (ticks * BigInt(Math.floor(bps * 100))) / 1_000_000n : 0n;
  return byTicks > byBps ? byTicks : byBps;
}

/** A wanted order's terms as a limit intent or a replacement takes them (the side is the placement's). */
function orderTerms(o: QuoteOrder) {
  return {
    size: o.size,
    price: o.price,
    postOnly: o.postOnly ?? false,
    reduceOnly: o.reduceOnly ?? false,
    ...(o.priceRounding === undefined ? {} : { priceRounding: o.priceRounding }),
    ...(o.sizeRounding === undefined ? {} : { sizeRounding: o.sizeRounding }),
  };
}
