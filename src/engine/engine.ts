import type { ActionAdmission } from './admission/admissionScope.js';
import type { Observable } from 'rxjs';
import { detach } from '../core/detach.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { SigningContext } from '../protocol/signingContext.js';
import type { Market } from '../venue/schemas/restMarkets.js';
import type { VenueSnapshot } from '../venue/state/venueSnapshot.js';
import type { InFlightActions } from './admission/inFlightActions.js';
import type { BudgetsConfig } from './admission/strategyBudgets.js';
import type { TradingConditions, TradingState } from './admission/tradingConditions.js';
import type { MarketView } from './checks/marketView.js';
import type { EngineFeeds } from './connection/feedFollower.js';
import type { ReconnectPart } from './connection/reconnectReconciler.js';
import type { EngineHooks } from './connection/venueFollowing.js';
import { assembleEngine, type EngineParts } from './engineAssembly.js';
import type { EngineOptions } from './engineOptions.js';
import type { KillSwitchState } from './guards/killSwitch.js';
import { closePosition } from './intents/intentBuilders.js';
import type { IntentOutcome } from './intents/intentOutcome.js';
import type { Intent } from './intents/intents.js';
import type { SessionLedger } from './ledger/sessionLedger.js';
import { openNonceAllocator } from './nonces/openNonceAllocator.js';
import type { OrderEvent } from './orders/orderEvent.js';
import type { StrategyProtections } from './protection/strategyProtections.js';
import type { Quoting } from './quoting/quoting.js';
import type { SendHold } from './nonces/nonceStage.js';
import type { StopCause } from './stopping/tradingStoppedError.js';
import type { OrderTracker, TrackedFill, TrackedOrder } from './tracking/orderTracker.js';

export type { EngineFeeds } from './connection/feedFollower.js';
export type { EngineHooks } from './connection/venueFollowing.js';
export type { EngineOptions } from './engineOptions.js';

/**
 * The execution engine: intents in, outcomes out, one intent through a pipeline of stages (accept →
 * pre-trade checks → admission → nonce → sign → send → track: `pipeline/`). The engine composes
 * the stages with their side jobs, each a class of its own: `VenueInfo` (domain, system config,
 * markets), `VenueFollowing` (reconciliation, feeds, reconnects), `StrategyScopes` (budgets),
 * `SignerRefusal`, `CloseBeforeSwitch`, `TradingStop` and `Quoting`.
 */
export class Engine {
  /** The one order model: every order of this process from the moment its intent arrives. */
  readonly tracker: OrderTracker;
  readonly outcomes$: Observable<IntentOutcome>;
  /** Every intent the engine runs as it arrives: the strategies' and its own (a quote target's actions). */
  readonly actions$: Observable<Intent>;
  /**
   * Every action the account's admission lets through, as it does (its rate-limit token taken):
   * a flight recording keeps them, so a replay admits each action when the recorded engine did.
   */
  readonly admissions$: Observable<ActionAdmission>;
  /** Every change of an order that was sent (the journal's input). */
  readonly orders$: Observable<TrackedOrder>;
  /** Every transition of every order, `queued` to its terminal event (`OrderEvent`): `ctx.orderEvents`, metrics. */
  readonly orderEvents$: Observable<OrderEvent>;
  readonly fills$: Observable<TrackedFill>;
  /** The one ledger of fills and PnL, at the engine's marks; booked before other subscribers of `fills$` hear. */
  readonly ledger: SessionLedger;
  /**
   * The one reconnect stream: emits each time the followed connection is back (re-authenticated)
   * after a loss, with `lostAtMs`, when the engine went degraded: the start of the window a
   * reconciliation must cover. Other reconcilers (the journal) follow this rather than the connection.
   */
  readonly reconnects$: Observable<{ readonly lostAtMs: number }>;
  /** The one count of admitted actions not yet settled, shared by every admission scope. */
  readonly inFlight: InFlightActions;
  /** Degraded, reconciling or stopped: judged before the guards; see `tradingState$`. */
  readonly conditions: TradingConditions;
  readonly tradingState$: Observable<TradingState>;
  /** Replacements and quote targets (`replace`, `quote` intents), and quote uptime (`quoting.uptime`). */
  readonly quoting: Quoting;
  /** Which strategy protects which market: the config's `protection:`, overridden by `protect`/`bracket` intents. */
  readonly protections: StrategyProtections;
  private readonly parts: EngineParts;

  constructor(private readonly options: EngineOptions) {
    const parts = assembleEngine(options);
    this.parts = parts;
    this.tracker = parts.tracker;
    this.orders$ = parts.tracker.orders$;
    this.orderEvents$ = parts.tracker.events$;
    this.fills$ = parts.tracker.fills$;
    this.ledger = parts.ledger;
    this.inFlight = parts.inFlight;
    this.conditions = parts.conditions;
    this.tradingState$ = parts.conditions.state$;
    this.reconnects$ = parts.following.reconnects$;
    this.outcomes$ = parts.pipeline.outcomes$;
    this.actions$ = parts.pipeline.actions$;
    this.admissions$ = parts.admissions.asObservable();
    this.quoting = parts.quoting;
    this.protections = parts.protections;
  }

  get signingContext(): SigningContext | undefined {
    return this.parts.venue.signing?.context;
  }

  get killSwitch(): { tripped: boolean; reason?: string } {
    return this.parts.gate.killSwitch;
  }

  /** Each strategy's budget from now on (replacing any before): see `StrategyScopes.use`. */
  useBudgets(config: BudgetsConfig): void {
    this.parts.scopes.use(config);
  }

  /** The trading state a strategy sees: the account's, or `halted` while its own kill switch is tripped. */
  tradingStateOf(strategy: string): Observable<TradingState> {
    return this.parts.scopes.tradingStateOf(strategy, this.tradingState$);
  }

  /** A strategy's own kill switch (undefined: no budget). */
  strategyKillSwitch(strategy: string): KillSwitchState | undefined {
    return this.parts.scopes.killSwitch(strategy);
  }

  /** Refuses what still waits on a strategy's budget (the strategies stopped); cancels and closes go on. */
  closeBudgets(): void {
    this.quoting.keeper.forget();
    this.parts.scopes.close();
  }

  /** Placements waiting for admission now (queued orders), per strategy: the `perpbot_orders_queued` gauge. */
  queuedOrders(): ReadonlyMap<string, number> {
    const counts = new Map<string, number>();
    for (const o of this.tracker.openOrders())
      if (o.state === 'queued') counts.set(o.strategy, (counts.get(o.strategy) ?? 0) + 1);
    return counts;
  }

  market(marketId: number): MarketView | undefined {
    return this.parts.venue.market(marketId);
  }

  /** The market's config, as `market(id)?.config` reads it, without a copy of the market's record. */
  marketConfig(marketId: number): MarketView['config'] | undefined {
    return this.parts.venue.marketConfig(marketId);
  }

  /**
   * The market's live mark, as `market(id)?.mark_price` reads it, without a copy of the market's
   * record (`market` makes one after every mark; the strategies' position views read the mark on
   * every message).
   */
  markOf(marketId: number): string | undefined {
    return this.parts.venue.markOf(marketId);
  }

  markets(): readonly Market[] {
    return this.parts.venue.markets();
  }

  /** Reads domain, system config, markets and nonce state, then reconciles orders and positions. */
  async start(): Promise<void> {
    const { rest, account, config, restoredNonceHighWater } = this.options;
    await this.parts.venue.refreshSigning();
    await this.refreshMarkets();
    this.parts.life.allocator = await openNonceAllocator({
      rest,
      account,
      slots: config.nonces,
      ...(restoredNonceHighWater === undefined ? {} : { restoredHighWater: restoredNonceHighWater }),
    });
    await this.parts.following.reconcileAtStart();
    // The session's opening positions and balance: what the account held before its first fill here.
    this.ledger.seed(this.tracker.allPositions(), this.tracker.currentBalance());
  }

  /** Why trading stopped for good (the venue refused our signer), or undefined while trading. */
  get tradingStopped(): string | undefined {
    return this.parts.signerRefusal.reason;
  }

  async refreshMarkets(): Promise<void> {
    for (const m of await this.parts.venue.refreshMarkets()) this.parts.gate.setMark(Number(m.market_id), m.mark_price);
  }

  /** The live mark (oracle feed): slippage bounds and the guards' valuations use it, never a stale start-up mark. */
  setMark(marketId: number, markPrice: string): void {
    this.parts.setMark(marketId, markPrice);
  }

  /** Open orders, positions and balance from REST: the truth after a start or a reconnect. */
  reconcile(read?: VenueSnapshot): Promise<void> {
    return this.parts.following.reconcile(read);
  }

  /**
   * Follows the venue's private feeds and the oracle; reconciles after every reconnect; degraded
   * while the connection is down or not yet reconciled (`tradingState$`). Only definite conditions
   * stop trading for good, each reported once through `hooks.onStopped` (and counted, `stopCounts`).
   */
  attach(feeds: EngineFeeds, hooks: EngineHooks = {}): void {
    // A loss awaiting confirmation stops with the feeds that reported it.
    this.parts.subscriptions.add(() => this.parts.gate.dispose());
    this.parts.following.attach(feeds, hooks);
  }

  /** Adds a reconciliation due after every reconnect before trading resumes (the journal's); returns its removal. */
  addReconnectPart(part: ReconnectPart): () => void {
    return this.parts.following.addReconnectPart(part);
  }

  /** How many times trading stopped for each definite cause (0 or 1 per process, as a metric). */
  get stopCounts(): ReadonlyMap<StopCause, number> {
    return this.parts.tradingStop.stopCounts;
  }

  /** Degraded periods so far and the longest that ended (ms); zero when no connection is followed. */
  get degradedStats(): { readonly periods: number; readonly longestMs: number } {
    return this.parts.following.degradedStats;
  }

  /** Queues an intent; its outcome arrives on `outcomes$`. */
  submit(intent: Intent): void {
    detach(this.execute(intent), (err) =>
      this.options.log.error({ err, intentId: intent.intentId }, 'intent ended without an outcome'),
    );
  }

  /** Runs an intent through the pipeline to its terminal outcome (also published on `outcomes$`). */
  execute(intent: Intent, hold?: SendHold): Promise<IntentOutcome> {
    return this.parts.pipeline.execute(intent, hold);
  }

  /** Cancels every open order a strategy placed, its quote targets with them (`stopping/orderCancels.ts`). */
  cancelOrdersOf(strategy: string): Promise<void> {
    return this.parts.cancelOrdersOf(strategy);
  }

  /** Closes a market's position (the intent `<intentId>-close`) and waits, bounded, until flat; true once flat. */
  closePositionAndWait(marketId: number, strategy: string, intentId: string): Promise<boolean> {
    return this.parts.closer.close(closePosition({ intentId, strategy, marketId }));
  }

  tripKillSwitch(reason: string): void {
    this.parts.gate.trip(reason);
  }

  /** Resets the account's kill switch and every strategy's own: trading resumes (unless degraded or stopped). */
  resetKillSwitch(): void {
    this.parts.gate.reset();
    this.parts.scopes.resetKillSwitches();
  }

  /** Resolves once every intent submitted so far has its terminal outcome. */
  drain(): Promise<void> {
    return this.parts.pipeline.drain();
  }

  /** Stops taking intents, aborts waits, and lets in-flight sends finish. */
  async stop(): Promise<void> {
    this.parts.life.stopped = true;
    this.parts.scopes.close();
    this.parts.abort.abort(new PerpbotError('engine stopped', { code: 'ENGINE_STOPPED' }));
    await this.parts.pipeline.settled();
    this.parts.subscriptions.unsubscribe();
    this.quoting.dispose();
    this.parts.pipeline.complete();
  }
}
