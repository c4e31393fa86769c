import type { MarketView } from '../checks/marketView.js';
import { cancel, placeLimit, replace } from '../intents/intentBuilders.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent, QuoteIntent, QuoteOrder } from '../intents/intents.js';
import { refusal, type Refusal, type RefusalRule } from '../intents/refusal.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { LivePlacements } from './livePlacements.js';
import { LiveQuotes } from './liveQuotes.js';
import type { QuotePlan, WantedQuote } from './quotePlan.js';
import { RetiringOrders } from './retiringOrders.js';
import { StrategyMarketMap } from '../tracking/strategyMarketMap.js';
import { wantedOf, type CountedTarget, type QuoteGrid } from './wantedQuotes.js';

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
export interface KeptTarget extends CountedTarget {
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
  private readonly retiring = new RetiringOrders();
  /** The live orders each target is planned against, read again only once they changed. */
  readonly live: LiveQuotes;

  constructor(private readonly deps: QuoteKeeperDeps) {
    this.live = new LiveQuotes({ tracker: deps.tracker, placements: deps.placements, retiring: this.retiring });
  }

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
    this.live.forget(strategy);
  }

  /** The order ended: nothing retires it any longer. */
  ended(intentId: string): void {
    this.retiring.release(intentId);
  }

  /** Whether a replacement is moving this order (it still rests until its cancel lands). */
  isMoving(intentId: string): boolean {
    return this.retiring.isMoving(intentId);
  }

  /** Takes a target, sends what it takes, and answers the quote intent. */
  take(intent: QuoteIntent): IntentOutcome {
    const market = this.deps.market(intent.marketId);
    if (market === undefined) return this.outcome(intent, refusal('market_id', intent.marketId, 'no such market'));
    const grid = gridOf(market);
    const wanted = wantedOf(intent, grid, this.targets.get(intent.strategy, intent.marketId));
    if ('rule' in wanted) return this.outcome(intent, wanted);
    const target: KeptTarget = { intent, grid, wanted, actions: 0, sent: 0 };
    this.targets.set(intent.strategy, intent.marketId, target);
    return this.outcome(intent, this.converge(target, grid));
  }

  /** Plans the target against what is live now and sends the plan; the reason opening is refused, if it is. */
  private converge(target: KeptTarget, grid: QuoteGrid): Refusal | undefined {
    const { intent } = target;
    const plan = this.live.plan(intent.strategy, intent.marketId, grid, target.wanted);
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
    if (target !== undefined && market !== undefined) this.converge(target, gridOf(market));
  }

  /** Sends the plan's actions (only its cancels when the strategy may not open); returns how many went. */
  private send(kept: KeptTarget, plan: QuotePlan, opening: boolean): number {
    const { intent } = kept;
    const { strategy, marketId } = intent;
    for (const live of plan.cancel) {
      this.retiring.retire(live, false);
      this.run(cancel({ intentId: nextActionId(kept), strategy, marketId, target: { intentId: live } }));
    }
    let actions = plan.cancel.length;
    if (!opening) return actions;
    for (const r of plan.replace) {
      const order = intent.orders[r.wanted] as QuoteOrder;
      this.retiring.retire(r.live, true);
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
        if (!this.deps.tracker.cancelRequested(replacing)) this.retiring.release(replacing);
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

/** The market's price tick and size step, as a target's orders are counted on them. */
function gridOf(market: MarketView): QuoteGrid {
  return { tick: market.config.step_price, step: market.config.step_size };
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
