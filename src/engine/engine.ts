import { setMaxListeners } from 'node:events';
import {
  BehaviorSubject,
  combineLatest,
  distinctUntilChanged,
  map,
  Subject,
  Subscription,
  type Observable,
} from 'rxjs';
import type { Address } from '../core/address.js';
import type { Clock } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { SignerLike } from '../protocol/digestSigner.js';
import type { SelectorTable } from '../protocol/selectors.js';
import type { SigningContext } from '../protocol/signingContext.js';
import type { RestClient } from '../venue/rest/restClient.js';
import type { Market } from '../venue/schemas/restMarkets.js';
import type { ActionSender } from './sending/actionSender.js';
import type { EngineConfig } from './engineConfig.js';
import { NO_JOURNAL, type EngineJournal } from './tracking/engineJournal.js';
import { lossView, SessionLedger } from './ledger/sessionLedger.js';
import { ClientOrderIds } from './intents/clientOrderIds.js';
import { executeIntent, type ExecutorDeps } from './sending/executor.js';
import type { SendHold } from './sending/sendWithPolicy.js';
import type { FeedLostError } from './connection/feedLostError.js';
import { AdmissionGate, type ActionAdmission } from './admission/admissionGate.js';
import { followConnection, type ConnectionStatusView } from './admission/followConnection.js';
import { InFlightActions } from './admission/inFlightActions.js';
import { AdmissionPipeline } from './admission/admissionPipeline.js';
import { StrategyBudgets, type BudgetsConfig } from './admission/strategyBudgets.js';
import type { KillSwitchState } from './guards/killSwitch.js';
import type { OrderEvent } from './orders/orderEvent.js';
import { queuedOrderOf } from './orders/queuedOrder.js';
import { TradingConditions, type TradingState } from './admission/tradingConditions.js';
import { strategyTradingState } from './admission/strategyTradingState.js';
import type { TradingStoppedError, StopCause } from './stopping/tradingStoppedError.js';
import type { IntentOutcome } from './intents/intentOutcome.js';
import {
  cancel as cancelIntent,
  cancelAll as cancelAllIntent,
  closePosition as closePositionIntent,
} from './intents/intentBuilders.js';
import { isPlaceIntent, placesAnOrder, type Intent } from './intents/intents.js';
import { FEED_WAIT_MS, readLandingEvidence, type LandingReader } from './sending/landingEvidence.js';
import type { MarketView } from './checks/marketView.js';
import type { NonceAllocator } from './nonces/nonceAllocator.js';
import { parseNonceState, type NoncePair } from './nonces/noncePair.js';
import { OrderTracker, type TrackedFill, type TrackedOrder } from './tracking/orderTracker.js';
import { refusal, type Refusal } from './intents/refusal.js';
import { orderRecordsOf, positionRecordsOf, readVenuePositions } from './tracking/snapshotRecords.js';
import { readVenueSnapshot, readVenueSnapshotWithNonces, type VenueSnapshot } from '../venue/state/venueSnapshot.js';
import { unlistedOrderFates } from './connection/unlistedOrderFates.js';
import { readAllOpenOrders } from '../venue/rest/readAllOpenOrders.js';
import { CloseBeforeSwitch } from './guards/closeBeforeSwitch.js';
import { DegradedModeWatch } from './connection/degradedModeWatch.js';
import { FeedFollower, type EngineFeeds, type FeedTargets } from './connection/feedFollower.js';
import { openNonceAllocator } from './nonces/openNonceAllocator.js';
import { ReconnectReconciler, type ReconnectPart } from './connection/reconnectReconciler.js';
import { SignerRefusal } from './stopping/signerRefusal.js';
import { SnapshotReconnectPart } from './connection/snapshotReconnectPart.js';
import { TradingStop } from './stopping/tradingStop.js';
import { VenueInfo } from '../venue/venueInfo.js';
import type { Logger } from '../core/logger.js';
import { detach } from '../core/detach.js';
import { Quoting } from './quoting/quoting.js';

export type { EngineFeeds } from './connection/feedFollower.js';

export interface EngineHooks {
  /** A feed failed for good (also reported through `onStopped`). */
  readonly onFeedLost?: (error: FeedLostError) => void;
  /** Trading stopped for a definite reason (feed lost, signer refused, outage too long): called once. */
  readonly onStopped?: (error: TradingStoppedError) => void;
}

export interface EngineOptions {
  readonly account: Address;
  readonly signer: SignerLike;
  readonly rest: RestClient;
  readonly sender: ActionSender;
  readonly config: EngineConfig;
  readonly selectors: SelectorTable;
  readonly clock: Clock;
  readonly log: Logger;
  /** Markets to reconcile (open orders, positions); all markets when absent. */
  readonly markets?: readonly number[];
  readonly permitDeadlineSeconds?: number;
  /**
   * Longest an intent waits on admission (its strategy's budget, the account's rate limit,
   * in-flight orders) before it is refused (`guard_wait_timeout`); default 30 s.
   */
  readonly maxGuardWaitMs?: number;
  /** Each strategy's budget (its `risk:` block), judged after the pre-trade checks and before the account's limits. */
  readonly budgets?: BudgetsConfig;
  /** The highest nonce pair a previous run handed out (from the journal). */
  readonly restoredNonceHighWater?: NoncePair;
  /** Durable record of intents, nonces, requests, responses and outcomes (default: none). */
  readonly journal?: EngineJournal;
  /**
   * Permit (default): every action signed by the session key with a nonce. JWT: actions carry the
   * session's Bearer token and no permit (the sender adds the header: `venueSender(rest, session)`;
   * after an Unauthenticated answer it drops the token and the request is sent once more with a
   * fresh login); needs an operator-hub allowance (approve-single) on the venue.
   */
  readonly authMode?: 'permit' | 'jwt';
  /**
   * A flight's replay only: what a placement waits for before its admission (the time the recorded
   * engine admitted it); undefined to go on at once.
   */
  readonly admissionHold?: (intent: Intent) => Promise<void> | undefined;
}

/**
 * The execution engine: intents in, outcomes out. Owns the order tracker, the nonce allocator,
 * the guard gate and the executor; reconciles from REST at start and after every reconnect;
 * never lets two intents share a nonce. Its side jobs are classes of their own that it composes:
 * `VenueInfo` (domain, system config, markets), `FeedFollower` (the private feeds and the oracle),
 * `SignerRefusal`, `CloseBeforeSwitch`, `ReconnectReconciler`, `DegradedModeWatch` and `TradingStop`.
 */
export class Engine {
  /** The one order model: every order of this process from the moment its intent arrives. */
  readonly tracker: OrderTracker;
  private readonly outcomeSubject = new Subject<IntentOutcome>();
  readonly outcomes$: Observable<IntentOutcome> = this.outcomeSubject.asObservable();
  private readonly actionSubject = new Subject<Intent>();
  /** Every intent the engine runs as it arrives: the strategies' and its own (a quote target's actions). */
  readonly actions$: Observable<Intent> = this.actionSubject.asObservable();
  private readonly admissionSubject = new Subject<ActionAdmission>();
  /**
   * Every action the account's admission lets through, as it does (its rate-limit token taken):
   * a flight recording keeps them, so a replay admits each action when the recorded engine did.
   */
  readonly admissions$: Observable<ActionAdmission> = this.admissionSubject.asObservable();
  /** Every change of an order that was sent (the journal's input). */
  readonly orders$: Observable<TrackedOrder>;
  /**
   * Every transition of every order, from `queued` to its terminal event, in the order they
   * happen (see `OrderEvent`): what strategies' `ctx.orderEvents`, metrics and views read.
   */
  readonly orderEvents$: Observable<OrderEvent>;
  readonly fills$: Observable<TrackedFill>;
  /**
   * The one ledger of fills and PnL, per strategy and for the account, valued at the engine's
   * marks: `ctx.pnl`, the strategies' and the account's kill switches, status, metrics read it.
   * Booked before any other subscriber of `fills$` hears of a fill.
   */
  readonly ledger: SessionLedger;
  private readonly reconnectSubject = new Subject<{ readonly lostAtMs: number }>();
  /**
   * The one reconnect stream: emits each time the followed connection is back (re-authenticated)
   * after a loss, with `lostAtMs`, when the engine went degraded (at or before the loss): the
   * start of the window a reconciliation must cover. Other reconcilers (the journal) follow this
   * rather than the connection, so every reconciler sees the same reconnects.
   */
  readonly reconnects$: Observable<{ readonly lostAtMs: number }> = this.reconnectSubject.asObservable();

  private readonly venue: VenueInfo;
  private allocator: NonceAllocator | undefined;
  private readonly gate: AdmissionGate;
  /** Budget, then account: the one admission after the pre-trade checks. */
  private readonly admission: AdmissionPipeline;
  private budgets: StrategyBudgets | undefined;
  /** The one count of admitted actions not yet settled, shared by every admission scope. */
  readonly inFlight: InFlightActions;
  /** Degraded, reconciling or stopped: judged before the guards; see `tradingState$`. */
  readonly conditions: TradingConditions;
  readonly tradingState$: Observable<TradingState>;
  /** Each budgeted strategy's own kill switch, by name: a tripped one halts that strategy only. */
  private readonly strategyKills = new BehaviorSubject<ReadonlyMap<string, KillSwitchState>>(new Map());
  private readonly tradingStop: TradingStop;
  private readonly signerRefusal: SignerRefusal;
  private readonly closer: CloseBeforeSwitch;
  private readonly reconnectReconciler: ReconnectReconciler;
  private degradedWatch: DegradedModeWatch | undefined;
  private readonly pending = new Map<string, Promise<IntentOutcome>>();
  /** Each strategy's cancels (and cancel-alls) still running: its later placements go after them. */
  private readonly cancelsOf = new Map<string, Set<Promise<IntentOutcome>>>();
  private readonly abort = new AbortController();
  private readonly subscriptions = new Subscription();
  private readonly clientOrderIds: ClientOrderIds;
  private stopped = false;
  private readonly journal: EngineJournal;
  /** Replacements and quote targets (`replace`, `quote` intents), and quote uptime (`quoting.uptime`). */
  readonly quoting: Quoting;
  private deps:
    { readonly context: SigningContext; readonly allocator: NonceAllocator; readonly deps: ExecutorDeps } | undefined;

  constructor(private readonly options: EngineOptions) {
    const { clock, log } = options;
    this.tracker = new OrderTracker(
      () => clock.now(),
      (refused, intentId) =>
        log.warn({ intentId, from: refused.from, to: refused.to }, `order change refused: ${refused.reason}`),
    );
    this.orders$ = this.tracker.orders$;
    this.orderEvents$ = this.tracker.events$;
    this.fills$ = this.tracker.fills$;
    this.clientOrderIds = new ClientOrderIds(clock.now(), options.config.nonces.slot, options.config.nonces.slots);
    this.journal = options.journal ?? NO_JOURNAL;
    // Every intent in flight (hundreds in a burst) listens on this one stop signal while it waits
    // for a nonce, a guard or the network, and removes its listener when done.
    setMaxListeners(0, this.abort.signal);
    this.venue = new VenueInfo(options.rest);
    this.ledger = new SessionLedger((marketId) => this.venue.market(marketId)?.mark_price);
    // First subscriber of the tracker's fills: the ledger is current when anyone else hears of one.
    this.subscriptions.add(this.tracker.fills$.subscribe((fill) => this.book(fill)));
    this.inFlight = new InFlightActions(clock);
    this.conditions = new TradingConditions(clock);
    this.tradingState$ = this.conditions.state$;
    const reconcile = () => this.reconcile();
    this.closer = new CloseBeforeSwitch({
      execute: (intent) => this.execute(intent),
      tracker: this.tracker,
      reconcile,
      clock,
      signal: this.abort.signal,
    });
    this.gate = this.admissionGate();
    this.admission = new AdmissionPipeline({ account: this.gate, clock, log, signal: this.abort.signal });
    if (options.budgets !== undefined) this.useBudgets(options.budgets);
    this.subscriptions.add(this.tracker.fills$.subscribe((fill) => this.budgets?.onFill(fill)));
    this.tradingStop = new TradingStop({ trip: (reason) => this.gate.trip(reason), conditions: this.conditions, log });
    this.signerRefusal = new SignerRefusal({ venue: this.venue, tradingStop: this.tradingStop, log });
    this.reconnectReconciler = new ReconnectReconciler({
      conditions: this.conditions,
      clock,
      signal: this.abort.signal,
      readVenue: (markets) => readVenueSnapshotWithNonces(options.rest, { account: options.account, markets }),
    });
    this.quoting = this.quotingFor();
  }

  private quotingFor(): Quoting {
    const { clock, log } = this.options;
    return new Quoting({
      tracker: this.tracker,
      market: (marketId) => this.venue.market(marketId),
      execute: (intent, hold) => this.execute(intent, hold),
      place: (placement, hold) => this.run(placement, hold),
      cancelQueued: (intentId) => this.cancelQueued(intentId),
      notTrading: (strategy, intent) => this.openingRefusal(strategy, intent),
      now: () => clock.now(),
      onError: (err, intentId) => log.error({ err, intentId }, 'a quote action ended without an outcome'),
    });
  }

  /**
   * Why a strategy may not open risk now (a quote target then sends only its cancels): the engine
   * stopping, a kill switch (the account's or the strategy's own), or the trading conditions.
   */
  private openingRefusal(strategy: string, intent: Intent): Refusal | undefined {
    const stopping = this.refusal(intent);
    if (stopping !== undefined) return stopping;
    const account = this.gate.killSwitch;
    const kill = account.tripped ? account : this.budgets?.killSwitch(strategy);
    if (kill?.tripped === true)
      return refusal(
        'kill_switch',
        intent.kind,
        `the kill switch is tripped (${kill.reason ?? 'manual'}); only cancels and position closes pass`,
        'reset the kill switch by hand once the cause is understood',
      );
    const verdict = this.conditions.verdict(intent, this.options.config.degraded);
    if (verdict.kind === 'refuse') return verdict.refusal;
    if (verdict.kind === 'allow') return undefined;
    return refusal('feed_down', intent.kind, `trading paused: ${verdict.reason}`, 'quote again once it trades');
  }

  private admissionGate(): AdmissionGate {
    const { options } = this;
    const degraded = options.config.degraded;
    return new AdmissionGate({
      name: 'account',
      config: options.config.guards,
      clock: options.clock,
      maxWaitMs: options.maxGuardWaitMs ?? 30_000,
      inFlight: this.inFlight,
      accountState: () => this.tracker.accountState(),
      conditions: { verdict: (intent) => this.conditions.verdict(intent, degraded) },
      closePosition: (intent) => this.closer.close(intent),
      onAdmitted: (admission) => {
        if (this.admissionSubject.observed) this.admissionSubject.next(admission);
      },
      onKillSwitchChanged: (state) =>
        state.tripped ? this.conditions.halt(state.reason ?? 'manual') : this.conditions.resume(),
      onKillSwitchTripped: (reason) =>
        detach(this.onKillSwitch(reason), (err) =>
          this.options.log.error({ err, reason }, 'kill switch: cancelling the orders failed; cancel them by hand'),
        ),
    });
  }

  get signingContext(): SigningContext | undefined {
    return this.venue.signing?.context;
  }

  get killSwitch(): { tripped: boolean; reason?: string } {
    return this.gate.killSwitch;
  }

  /**
   * Each strategy's budget from now on (replacing any before): the runtime hands them once its
   * strategies' freshness budgets exist. Intents of a strategy not listed pass the account's limits only.
   */
  useBudgets(config: BudgetsConfig): void {
    this.budgets?.close(stoppingRefusal);
    this.budgets = new StrategyBudgets(config, {
      clock: this.options.clock,
      log: this.options.log,
      maxWaitMs: this.options.maxGuardWaitMs ?? 30_000,
      inFlight: this.inFlight,
      openOrders: (strategy) => this.tracker.openOrders({ strategy }),
      markOf: (marketId) => this.venue.market(marketId)?.mark_price,
      bookOf: (strategy) => this.ledger.bookOf(strategy),
      cancelOrdersOf: (strategy) => this.cancelOrdersOf(strategy),
      onKillSwitchChanged: (strategy, state) =>
        this.strategyKills.next(new Map(this.strategyKills.value).set(strategy, state)),
    });
    this.admission.useBudgets(this.budgets);
  }

  /**
   * The trading state a strategy sees: the account's, or `halted` while its own budget's kill
   * switch is tripped (`strategyTradingState`); the current one first, then every change.
   */
  tradingStateOf(strategy: string): Observable<TradingState> {
    const own = this.strategyKills.pipe(
      map((kills) => kills.get(strategy)),
      distinctUntilChanged(),
    );
    return combineLatest([this.tradingState$, own]).pipe(
      map(([account, kill]) => strategyTradingState(account, kill, this.options.clock.now())),
      distinctUntilChanged((a, b) => a.mode === b.mode && a.reasons.join('\n') === b.reasons.join('\n')),
    );
  }

  /** A strategy's own kill switch (undefined: no budget). */
  strategyKillSwitch(strategy: string): KillSwitchState | undefined {
    return this.budgets?.killSwitch(strategy);
  }

  /** Refuses what still waits on a strategy's budget (the strategies stopped); cancels and closes go on. */
  closeBudgets(): void {
    this.quoting.keeper.forget();
    this.budgets?.close(stoppingRefusal);
  }

  /** Placements waiting for admission now (queued orders), per strategy: the `perpbot_orders_queued` gauge. */
  queuedOrders(): ReadonlyMap<string, number> {
    const counts = new Map<string, number>();
    for (const o of this.tracker.openOrders())
      if (o.state === 'queued') counts.set(o.strategy, (counts.get(o.strategy) ?? 0) + 1);
    return counts;
  }

  market(marketId: number): MarketView | undefined {
    return this.venue.market(marketId);
  }

  markets(): readonly Market[] {
    return this.venue.markets();
  }

  /** Reads domain, system config, markets and nonce state, then reconciles orders and positions. */
  async start(): Promise<void> {
    const { rest, account, config, restoredNonceHighWater } = this.options;
    await this.venue.refreshSigning();
    await this.refreshMarkets();
    this.allocator = await openNonceAllocator({
      rest,
      account,
      slots: config.nonces,
      ...(restoredNonceHighWater === undefined ? {} : { restoredHighWater: restoredNonceHighWater }),
    });
    await this.reconcile();
    // The session's opening positions and balance: what the account held before its first fill here.
    this.ledger.seed(this.tracker.allPositions(), this.tracker.currentBalance());
  }

  /** Why trading stopped for good (the venue refused our signer), or undefined while trading. */
  get tradingStopped(): string | undefined {
    return this.signerRefusal.reason;
  }

  async refreshMarkets(): Promise<void> {
    for (const m of await this.venue.refreshMarkets()) this.gate.setMark(Number(m.market_id), m.mark_price);
  }

  /**
   * The live mark (oracle feed): market orders take their slippage bound from it and the guards
   * value positions with it, so a stale mark from the start-up read must never be used.
   */
  setMark(marketId: number, markPrice: string): void {
    this.venue.setMark(marketId, markPrice);
    this.gate.setMark(marketId, markPrice);
    if (this.ledger.holds(marketId)) this.checkLoss();
    this.budgets?.revalueAll();
  }

  /**
   * Open orders, positions and balance from REST, as the truth after a start or a reconnect; an
   * order held as resting that the snapshot no longer lists takes its fate from the order history
   * (filled or cancelled), so what the executor reads next is what the journal records.
   */
  async reconcile(read?: VenueSnapshot): Promise<void> {
    const { rest, account, log } = this.options;
    const snapshot = read ?? (await readVenueSnapshot(rest, { account, markets: this.reconciledMarkets() }));
    const orders = orderRecordsOf(snapshot);
    const fates = await unlistedOrderFates(rest, account, this.tracker.openOrders(), orders).catch((err: unknown) => {
      log.warn({ err }, 'order history not read: orders that left the book while unobserved count as cancelled');
      return [];
    });
    this.tracker.onPositions(positionRecordsOf(snapshot));
    this.tracker.onOrderRecords(fates, false);
    this.tracker.holdSnapshotCloses(false);
    this.tracker.onOrderRecords(orders, true);
    this.tracker.onBalance(snapshot.balance);
  }

  /** The markets a reconciliation reads: those configured, else every market of the venue. */
  private reconciledMarkets(): readonly number[] {
    return this.options.markets ?? this.venue.marketIds();
  }

  /**
   * Follows the venue's private feeds and the oracle; reconciles after every reconnect. While the
   * connection is down or not yet reconciled the engine is degraded (`tradingState$`): it opens
   * nothing and resumes by itself. Only definite conditions stop trading for good, each reported
   * once through `hooks.onStopped` (and counted, `stopCounts`): a feed that fails for good (a
   * private channel whose signer is not Active, a refused subscription, a handler that threw), an
   * outage longer than `degraded.maxOutageMs` with policy `stop`, or a signer the venue still
   * refuses after the system config was read again.
   */
  attach(feeds: EngineFeeds, hooks: EngineHooks = {}): void {
    this.tradingStop.listen(hooks.onStopped);
    // A loss awaiting confirmation stops with the feeds that reported it.
    this.subscriptions.add(() => this.gate.dispose());
    const follower = new FeedFollower({
      subscriptions: this.subscriptions,
      log: this.options.log,
      trip: (reason) => this.gate.trip(reason),
      tradingStop: this.tradingStop,
      stopping: () => this.stopped,
      onFeedLost: hooks.onFeedLost,
    });
    follower.followAll(feeds, this.feedTargets());
    if (feeds.connection !== undefined) this.followConnection(feeds.connection);
    if (feeds.reconnected !== undefined) {
      follower.follow('reconnected', feeds.reconnected, () => {
        this.reconcile().catch((error: unknown) =>
          this.options.log.error({ err: error }, 'reconciliation after reconnect failed'),
        );
      });
    }
  }

  private feedTargets(): FeedTargets {
    return {
      tracker: this.tracker,
      setMark: (marketId, markPrice) => this.setMark(marketId, markPrice),
    };
  }

  /** Degraded while the connection is down; back, it reconciles (and tells the other reconcilers). */
  private followConnection(connection: Observable<ConnectionStatusView>): void {
    // First among the parts: its snapshot starts before any other part's reconciliation.
    this.reconnectReconciler.add(
      new SnapshotReconnectPart({
        conditions: this.conditions,
        reconcile: (snapshot) => this.reconcile(snapshot),
        markets: () => this.reconciledMarkets(),
        log: this.options.log,
      }),
    );
    this.subscriptions.add(
      followConnection(
        connection,
        this.conditions,
        () => {
          // Still degraded here (every reconciler is due), so sinceMs is when the loss began.
          const lostAtMs = this.conditions.state.sinceMs;
          detach(this.reconnectReconciler.reconnected(lostAtMs), (err) =>
            this.options.log.error({ err }, 'reconciliation after a reconnect failed; trading stays degraded'),
          );
          this.reconnectSubject.next({ lostAtMs });
        },
        () => this.tracker.holdSnapshotCloses(true),
      ),
    );
    const watch = new DegradedModeWatch({
      conditions: this.conditions,
      clock: this.options.clock,
      config: this.options.config.degraded,
      log: this.options.log,
      trip: (reason) => this.gate.trip(reason),
      tradingStop: this.tradingStop,
    });
    this.degradedWatch = watch;
    this.subscriptions.add(() => watch.dispose());
  }

  /**
   * Adds a reconciliation that must succeed after every reconnect before trading resumes (the
   * journal's): run by the engine's one reconnect reconciler after the engine's own snapshot has
   * started, with its own retry policy and settle pause. Returns its removal, which aborts its retries.
   */
  addReconnectPart(part: ReconnectPart): () => void {
    return this.reconnectReconciler.add(part);
  }

  /** How many times trading stopped for each definite cause (0 or 1 per process, as a metric). */
  get stopCounts(): ReadonlyMap<StopCause, number> {
    return this.tradingStop.stopCounts;
  }

  /** Degraded periods so far and the longest that ended (ms); zero when no connection is followed. */
  get degradedStats(): { readonly periods: number; readonly longestMs: number } {
    return this.degradedWatch?.stats ?? { periods: 0, longestMs: 0 };
  }

  /** Queues an intent; its outcome arrives on `outcomes$`. */
  submit(intent: Intent): void {
    detach(this.execute(intent), (err) =>
      this.options.log.error({ err, intentId: intent.intentId }, 'intent ended without an outcome'),
    );
  }

  /**
   * Runs an intent to its terminal outcome (also published on `outcomes$`). A placement is the
   * engine's order from here on (`queued`, listed by `tracker.openOrders()`); a cancel of an order
   * still queued takes it out of the queue, nothing sent, and is accepted at once.
   */
  execute(intent: Intent, hold?: SendHold): Promise<IntentOutcome> {
    this.journal.intentReceived(intent, this.options.clock.now());
    if (this.actionSubject.observed) this.actionSubject.next(intent);
    this.quoting.acted(intent);
    const local = this.takeOrder(intent);
    const run = (local === undefined ? this.runKind(intent, hold) : Promise.resolve(local)).then((outcome) => {
      this.pending.delete(intent.intentId);
      this.journal.outcome(outcome);
      this.outcomeSubject.next(outcome);
      return outcome;
    });
    this.pending.set(intent.intentId, run);
    if (local === undefined && (intent.kind === 'cancel' || intent.kind === 'cancelAll'))
      this.holdPlacements(intent, run);
    return run;
  }

  /** A quote target is taken at once; a replace runs its pair; every other intent runs to its action. */
  private runKind(intent: Intent, hold: SendHold | undefined): Promise<IntentOutcome> {
    if (intent.kind === 'quote') return Promise.resolve(this.quoting.quote(intent));
    if (intent.kind === 'replace') return this.quoting.replace(intent);
    return this.run(intent, hold);
  }

  /**
   * A strategy's placements go after its earlier cancels have their outcome: a requote (cancel,
   * cancel, place, place) never has its new quotes resting beside the old ones while those
   * cancels wait (on the rate limit, or for the placement they cancel to be answered).
   */
  private holdPlacements(intent: Intent, run: Promise<IntentOutcome>): void {
    let cancels = this.cancelsOf.get(intent.strategy);
    if (cancels === undefined) {
      cancels = new Set();
      this.cancelsOf.set(intent.strategy, cancels);
    }
    const held = cancels;
    held.add(run);
    const done = (): void => {
      held.delete(run);
      if (held.size === 0 && this.cancelsOf.get(intent.strategy) === held) this.cancelsOf.delete(intent.strategy);
    };
    run.then(done, done);
  }

  /** False when the intent's order was cancelled while it waited (nothing is sent for it then). */
  private stillWanted(intent: Intent): boolean {
    return !placesAnOrder(intent) || this.tracker.order(intent.intentId)?.state !== 'cancelled';
  }

  /** Waits for the strategy's cancels emitted before this placement; false when it was cancelled meanwhile. */
  private async afterEarlierCancels(intent: Intent): Promise<boolean> {
    const cancels = this.cancelsOf.get(intent.strategy);
    if (cancels === undefined) return true;
    await Promise.allSettled([...cancels]);
    return this.tracker.order(intent.intentId)?.state !== 'cancelled';
  }

  /**
   * The order model's part of an intent as it arrives: a placement is queued; a cancel marks its
   * target asked to go (and ends it at once when it is still queued: the cancel's outcome then);
   * a cancel-all does so for every order of its market.
   */
  private takeOrder(intent: Intent): IntentOutcome | undefined {
    if (intent.kind === 'replace') return this.quoting.arrivedReplace(intent);
    const order = queuedOrderOf(intent, (marketId) => this.tracker.position(marketId));
    if (order !== undefined) {
      if (intent.kind === 'placeLimit') this.quoting.arrived(intent);
      this.tracker.queued(order);
      return undefined;
    }
    if (intent.kind === 'cancel') {
      const target =
        'intentId' in intent.target
          ? intent.target.intentId
          : this.tracker.orderByOrderId(intent.target.orderId)?.intentId;
      if (target === undefined || !this.cancelQueued(target)) return undefined;
      return {
        intentId: intent.intentId,
        strategy: intent.strategy,
        kind: intent.kind,
        marketId: intent.marketId,
        type: 'accepted',
        atMs: this.options.clock.now(),
      };
    }
    if (intent.kind === 'cancelAll')
      for (const o of this.tracker.openOrders({ marketId: intent.marketId })) this.cancelQueued(o.intentId);
    return undefined;
  }

  /** Asks the order to go; a queued one goes now (withdrawn from admission, nothing sent). True when it was queued. */
  private cancelQueued(intentId: string): boolean {
    if (!this.tracker.requestCancel(intentId)) return false;
    this.admission.withdraw(intentId);
    return true;
  }

  /**
   * Cancels every open order a strategy placed (those still queued at once, nothing sent), then
   * reads the positions of the markets where any had reached the venue again from REST: a
   * cancel's answer does not say what filled just before it, and the feeds may report that fill
   * after the answer, so a stopping strategy's onStop would otherwise flatten a stale position.
   * Positions only: the open orders are the feeds' (a snapshot of them would close an order
   * another strategy placed while it was read).
   */
  async cancelOrdersOf(strategy: string): Promise<void> {
    // Its quote targets go with its orders: nothing is placed for them any more.
    this.quoting.keeper.forget(strategy);
    const open = this.tracker.openOrders({ strategy });
    await this.cancelEach(strategy, open);
    const markets = [...new Set(open.filter((o) => o.state !== 'queued').map((o) => o.marketId))];
    if (markets.length === 0) return;
    try {
      this.tracker.onPositions(await readVenuePositions(this.options.rest, this.options.account, markets));
    } catch (err) {
      this.options.log.warn(
        { err, strategy, markets },
        "positions not read again after cancelling the strategy's orders: what follows judges the feeds' state",
      );
    }
  }

  private async cancelEach(strategy: string, open: readonly TrackedOrder[]): Promise<void> {
    await Promise.all(
      open.map((o) =>
        this.execute(
          cancelIntent({
            intentId: `${o.intentId}-cancel`,
            strategy,
            marketId: o.marketId,
            target: { intentId: o.intentId },
          }),
        ),
      ),
    );
  }

  /**
   * Closes a market's position with a reduce-only market order (the intent `<intentId>-close`) and
   * waits, bounded, until the venue reports it flat: the margin-mode guard's close, for the
   * shutdown's `positions: close` too. True once flat.
   */
  closePositionAndWait(marketId: number, strategy: string, intentId: string): Promise<boolean> {
    return this.closer.close(closePositionIntent({ intentId, strategy, marketId }));
  }

  tripKillSwitch(reason: string): void {
    this.gate.trip(reason);
  }

  /** Resets the account's kill switch and every strategy's own: trading resumes (unless degraded or stopped). */
  resetKillSwitch(): void {
    this.gate.reset();
    this.budgets?.resetKillSwitches();
  }

  /** Resolves once every intent submitted so far has its terminal outcome. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending.values()]);
  }

  /** Stops taking intents, aborts waits, and lets in-flight sends finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.budgets?.close(stoppingRefusal);
    this.abort.abort(new PerpbotError('engine stopped', { code: 'ENGINE_STOPPED' }));
    await Promise.allSettled([...this.pending.values()]);
    this.subscriptions.unsubscribe();
    this.quoting.dispose();
    this.outcomeSubject.complete();
  }

  /**
   * An intent to its terminal outcome. With a `hold` (one action of a replacement) it is signed at
   * once and sent when the hold allows, instead of waiting for the strategy's earlier cancels.
   */
  private async run(intent: Intent, hold?: SendHold): Promise<IntentOutcome> {
    const base = {
      intentId: intent.intentId,
      strategy: intent.strategy,
      kind: intent.kind,
      marketId: intent.marketId,
      atMs: this.options.clock.now(),
    };
    const refused = this.refusal(intent);
    if (refused !== undefined) {
      this.tracker.settle(intent.intentId, 'refused', { code: refused.rule, reason: refused.reason, by: 'checks' });
      return { ...base, type: 'refused', refusal: refused };
    }
    if (intent.kind === 'cancel' && 'intentId' in intent.target) {
      // Cancelling an order whose placement is still in flight: wait for the placement first.
      await this.pending.get(intent.target.intentId);
    }
    const replayed = this.options.admissionHold?.(intent);
    // Held, it never reached admission, where a cancel of it would have found it: see whether one came.
    const cancelledMeanwhile = replayed !== undefined && !(await replayed.then(() => this.stillWanted(intent)));
    const waits = hold === undefined && isPlaceIntent(intent) && this.cancelsOf.has(intent.strategy);
    if (cancelledMeanwhile || (waits && !(await this.afterEarlierCancels(intent)))) {
      return {
        ...base,
        type: 'refused',
        refusal: refusal(
          'cancelled_queued',
          intent.intentId,
          "cancelled while it waited for its strategy's earlier cancels: nothing was sent",
        ),
      };
    }
    // Every order gets a client_order_id, a close too: a fill that arrives before the placement's
    // answer is tied to its order (and strategy) by it. Object.assign, not a spread: a spread that
    // adds a field costs about a microsecond in V8.
    const prepared =
      placesAnOrder(intent) && intent.clientOrderId === undefined
        ? Object.assign({}, intent, { clientOrderId: this.clientOrderIds.next() })
        : intent;
    try {
      return await executeIntent(prepared, this.executorDeps(), this.abort.signal, hold);
    } catch (error) {
      // Stopping aborts what still waits (a hold, a guard): expected then, not a fault.
      if (error instanceof PerpbotError && error.code === 'ENGINE_STOPPED')
        this.options.log.info({ intentId: intent.intentId }, 'intent ended by the engine stopping');
      else this.options.log.error({ err: error, intentId: intent.intentId }, 'intent failed unexpectedly');
      const code = error instanceof PerpbotError ? error.code : 'UNEXPECTED';
      const reason = error instanceof Error ? error.message : String(error);
      this.tracker.settle(intent.intentId, 'failed', { code, reason, by: 'venue' });
      return {
        ...base,
        type: 'failed',
        error: {
          code: error instanceof PerpbotError ? error.code : 'UNEXPECTED',
          message: error instanceof Error ? error.message : String(error),
          hints: [],
        },
      };
    }
  }

  /** Refused before anything else: the engine stops, or the venue refused our signer. */
  private refusal(intent: Intent): Refusal | undefined {
    if (this.stopped) return refusal('engine_stopped', intent.kind, 'the engine is stopping; no new intents');
    if (!this.signerRefusal.refused) return undefined;
    return refusal(
      'engine_stopped',
      intent.kind,
      'trading stopped: the venue refused the signer (SignerNotAuthorized)',
      'check that permit target is addresses.router, then restart',
    );
  }

  /**
   * The executor's view of this engine, built once per signing context and allocator (they change
   * on a refresh or a restart) rather than per intent: a dozen closures per intent showed up in
   * the engine's profile as allocation and garbage collection.
   */
  private executorDeps(): ExecutorDeps {
    const context = this.venue.signing?.context;
    const allocator = this.allocator;
    if (context === undefined || allocator === undefined)
      throw new PerpbotError('engine used before start()', {
        code: 'ENGINE_NOT_STARTED',
        hints: ['await engine.start() first'],
      });
    const cached = this.deps;
    if (cached !== undefined && cached.context === context && cached.allocator === allocator) return cached.deps;
    const deps = this.buildExecutorDeps(context, allocator);
    this.deps = { context, allocator, deps };
    return deps;
  }

  private buildExecutorDeps(context: SigningContext, allocator: NonceAllocator): ExecutorDeps {
    const o = this.options;
    // After an ambiguous answer: the tracker (orders and fills channels), open orders, the position.
    const landing: LandingReader = {
      rest: o.rest,
      account: o.account,
      tracker: this.tracker,
      clock: o.clock,
      feedWaitMs: FEED_WAIT_MS,
    };
    return {
      account: o.account,
      config: o.config,
      selectors: o.selectors,
      auth:
        o.authMode === 'jwt'
          ? { mode: 'jwt' }
          : { mode: 'permit', context: () => context, signer: o.signer, allocator },
      sender: o.sender,
      tracker: this.tracker,
      clock: o.clock,
      log: o.log,
      journal: this.journal,
      permitDeadlineSeconds: o.permitDeadlineSeconds ?? 60,
      market: (id) => this.venue.checkedMarket(id),
      guard: (intent, state) => this.admission.admit(intent, state),
      guardNow: (intent, state) => this.admission.admitNow(intent, state),
      readNonceState: async () => parseNonceState(await o.rest.nonceState(o.account)),
      lookupRestingId: async (marketId, orderId) => {
        // Every page, filtered to the one id: the first page alone misses an order further down.
        const open = await readAllOpenOrders(o.rest, { account: o.account, marketId, orderIds: [orderId] });
        const found = open.orders.find((x) => x.order_id.toLowerCase() === orderId.toLowerCase());
        return found === undefined ? undefined : BigInt(found.resting_order_id);
      },
      readLandingEvidence: (intent, action, signal) => readLandingEvidence(landing, intent.intentId, action, signal),
      onSignerNotAuthorized: (error) => this.signerRefusal.onRefused(error),
    };
  }

  private async onKillSwitch(reason: string): Promise<void> {
    this.options.log.error({ reason }, 'kill switch tripped: cancelling all orders');
    const markets = new Set(this.tracker.openOrders().map((o) => o.marketId));
    for (const f of this.tracker.foreignOrders()) markets.add(f.marketId);
    await Promise.all(
      [...markets].map((marketId) =>
        this.execute(
          cancelAllIntent({
            intentId: `kill-switch-${marketId}-${this.options.clock.now()}`,
            strategy: 'engine',
            marketId,
          }),
        ),
      ),
    );
  }

  /**
   * Books a counted fill and judges the account's loss again. A fill the ledger cannot take (the
   * feeds' schemas make it unlikely) is logged, never thrown at the subscribers after it.
   */
  private book(fill: TrackedFill): void {
    try {
      this.ledger.onFill(fill);
      this.checkLoss();
    } catch (err) {
      this.options.log.error({ err, fillId: fill.id }, 'a fill could not be booked in the ledger; PnL misses it');
    }
  }

  /** The account's kill switch judges the ledger's account figure: fills and fees, at the marks. */
  private checkLoss(): void {
    const pnl = lossView(this.ledger.accountPnl());
    if (pnl !== undefined) this.gate.watchPnl(pnl);
  }
}

function stoppingRefusal(intent: Intent): Refusal {
  return refusal('engine_stopped', intent.kind, 'the bot is stopping; no new intents');
}
