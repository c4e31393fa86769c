import { Subscription } from 'rxjs';
import type { MarketView } from '../checks/marketView.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent, PlaceLimitIntent, QuoteIntent, ReplaceIntent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import { isTerminalOrderEvent } from '../orders/orderEvent.js';
import { queuedOrderOf } from '../accept/queuedOrder.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { TrackedOrder } from '../orders/trackedOrder.js';
import type { SendHold } from '../nonces/nonceStage.js';
import { LivePlacements } from './livePlacements.js';
import { marginCoversBoth } from './marginCoversBoth.js';
import { QuoteKeeper } from './quoteKeeper.js';
import { QuoteUptime } from './quoteUptime.js';
import { replacementOf, replaceTarget, runReplace, type ReplaceDeps } from './replaceOrder.js';

/** What replacements and quote targets need of the engine. */
export interface QuotingDeps {
  readonly tracker: OrderTracker;
  market(marketId: number): MarketView | undefined;
  /** Runs an intent through the whole engine, journaled, its outcome published; sent when `hold` allows. */
  execute(intent: Intent, hold?: SendHold): Promise<IntentOutcome>;
  /** Runs a placement as the order of the intent being executed (its outcome is that intent's), sent on `hold`. */
  place(placement: PlaceLimitIntent, hold?: SendHold): Promise<IntentOutcome>;
  /** Takes a queued order out of admission, cancelled, nothing sent. */
  cancelQueued(intentId: string): boolean;
  /** Why the strategy may not open now; undefined while it may. */
  notTrading(strategy: string, intent: Intent): Refusal | undefined;
  now(): number;
  onError(error: unknown, intentId: string): void;
}

/**
 * The engine's replacements (`replace` intents) and quote targets (`quote` intents): it keeps the
 * terms of every live limit order (`LivePlacements`) and each strategy's targets (`QuoteKeeper`).
 */
export class Quoting {
  readonly placements = new LivePlacements();
  readonly keeper: QuoteKeeper;
  /** Quote uptime per strategy and market, from the order events and the targets. */
  readonly uptime: QuoteUptime;
  private readonly replacements = new Map<string, { placement: PlaceLimitIntent; old?: TrackedOrder }>();
  private readonly subscription: Subscription;

  /**
   * What a replace runs on, made once: a set of closures made per replace cost each its function
   * object and, under tsx (which `perpbot replay` runs through), a naming call per closure.
   */
  private readonly replaceDeps: ReplaceDeps;

  constructor(private readonly deps: QuotingDeps) {
    const { tracker } = deps;
    this.replaceDeps = {
      tracker,
      placements: this.placements,
      execute: (i, hold) => deps.execute(i, hold),
      place: (p, hold) => deps.place(p, hold),
      marginCoversBoth: (p) =>
        marginCoversBoth(p, {
          balance: tracker.currentBalance(),
          orders: tracker.openOrders(),
          positions: tracker.allPositions(),
          markOf: (id) => deps.market(id)?.mark_price,
        }),
      now: () => deps.now(),
    };
    this.keeper = new QuoteKeeper({
      tracker: deps.tracker,
      placements: this.placements,
      market: (id) => deps.market(id),
      execute: (intent) => deps.execute(intent),
      notTrading: (strategy, intent) => deps.notTrading(strategy, intent),
      now: () => deps.now(),
      onError: (error, intentId) => deps.onError(error, intentId),
    });
    this.uptime = new QuoteUptime({
      tracker: deps.tracker,
      now: () => deps.now(),
      target: (strategy, marketId) => this.keeper.target(strategy, marketId),
      isMoving: (intentId) => this.keeper.isMoving(intentId),
      grid: (marketId) => {
        const config = deps.market(marketId)?.config;
        return config === undefined ? undefined : { tick: config.step_price, step: config.step_size };
      },
      revision: (strategy, marketId) => this.keeper.live.revision(strategy, marketId),
    });
    this.subscription = deps.tracker.events$.subscribe((e) => {
      if (isTerminalOrderEvent(e)) {
        this.placements.forget(e.intentId);
        this.keeper.ended(e.intentId);
      }
      // Without a target, a new order is a change of what the strategy wants, and one action.
      const wantedChanged = e.type === 'queued' && this.keeper.target(e.strategy, e.marketId) === undefined;
      this.uptime.touched(e.strategy, e.marketId, wantedChanged ? { actions: 1 } : undefined);
    });
  }

  /** A limit placement arrives: its terms are kept while its order lives (a replacement inherits them). */
  arrived(intent: PlaceLimitIntent): void {
    this.placements.remember(intent);
  }

  /**
   * A replace arrives: its new order is queued as the engine's from now on, and an old order still
   * queued goes at once (nothing was sent, so the new one simply takes its turn). The refusal when
   * it names no live limit order of this process.
   */
  arrivedReplace(intent: ReplaceIntent): IntentOutcome | undefined {
    const old = replaceTarget(intent, this.deps.tracker);
    if ('rule' in old) {
      const { intentId, strategy, marketId } = intent;
      return { intentId, strategy, kind: 'replace', marketId, type: 'refused', refusal: old, atMs: this.deps.now() };
    }
    const placement = replacementOf(intent, old, this.placements.get(old.intentId));
    this.placements.remember(placement);
    this.deps.tracker.queued(queuedOrderOf(placement, () => undefined) as Omit<TrackedOrder, 'state' | 'filledSize'>);
    if (old.state === 'queued' && this.deps.cancelQueued(old.intentId))
      this.replacements.set(intent.intentId, { placement });
    else this.replacements.set(intent.intentId, { placement, old });
    return undefined;
  }

  /** Runs a replace taken by `arrivedReplace`. */
  async replace(intent: ReplaceIntent): Promise<IntentOutcome> {
    const taken = this.replacements.get(intent.intentId);
    this.replacements.delete(intent.intentId);
    if (taken === undefined) throw new Error(`replace ${intent.intentId} was not taken first`);
    if (taken.old === undefined) return { ...(await this.deps.place(taken.placement)), kind: 'replace' };
    return runReplace(intent, taken.placement, taken.old, this.replaceDeps);
  }

  /** A quote target: taken at once (its actions go on their own). */
  quote(intent: QuoteIntent): IntentOutcome {
    const outcome = this.keeper.take(intent);
    const actions = this.keeper.target(intent.strategy, intent.marketId)?.actions ?? 0;
    this.uptime.touched(intent.strategy, intent.marketId, { actions });
    return outcome;
  }

  /** An intent the engine runs (a quote's actions among them): counted toward the requote under way. */
  acted(intent: Intent): void {
    this.uptime.acted(intent);
  }

  dispose(): void {
    this.subscription.unsubscribe();
  }
}
