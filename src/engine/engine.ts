import { setMaxListeners } from 'node:events';
import { Subject, Subscription, type Observable } from 'rxjs';
import type { Address } from '../core/address.js';
import type { Clock } from '../core/clock.js';
import { compareDecimals } from '../core/decimal.js';
import { PerpbotError } from '../core/perpbotError.js';
import { exponentialBackoff, withRetry } from '../core/withRetry.js';
import type { SignerLike } from '../protocol/digestSigner.js';
import { parseDomain } from '../protocol/domain.js';
import type { SelectorTable } from '../protocol/selectors.js';
import { createSigningContext, type SigningContext } from '../protocol/signingContext.js';
import type { RestClient } from '../venue/rest/restClient.js';
import { SignerNotActiveError } from '../venue/ws/venueWsError.js';
import type { Market } from '../venue/schemas/restMarkets.js';
import type {
  AccountMessage,
  FillsMessage,
  OrdersMessage,
  PositionsMessage,
} from '../venue/schemas/wsFramesPrivate.js';
import type { OracleMessage } from '../venue/schemas/wsFramesOracle.js';
import type { ActionSender } from './sending/actionSender.js';
import type { EngineConfig } from './engineConfig.js';
import { NO_JOURNAL, type EngineJournal } from './tracking/engineJournal.js';
import { SessionPnl } from './tracking/sessionPnl.js';
import type { PnlSnapshot } from './guards/killSwitch.js';
import { ClientOrderIds } from './intents/clientOrderIds.js';
import { executeIntent, type ExecutorDeps, type ExecutorLogger } from './sending/executor.js';
import { FeedLostError } from './feedLostError.js';
import { AdmissionGate } from './admission/admissionGate.js';
import { followConnection, type ConnectionStatusView } from './admission/followConnection.js';
import { InFlightActions } from './admission/inFlightActions.js';
import { OutageWatch } from './admission/outageWatch.js';
import { TradingConditions, type TradingState } from './admission/tradingConditions.js';
import { TradingStoppedError, type StopCause } from './tradingStoppedError.js';
import type { IntentOutcome } from './intents/intentOutcome.js';
import {
  closePosition as closePositionIntent,
  cancel as cancelIntent,
  cancelAll as cancelAllIntent,
} from './intents/intentBuilders.js';
import { isPlaceIntent, type Intent } from './intents/intents.js';
import { FEED_WAIT_MS, readLandingEvidence, type LandingReader } from './sending/landingEvidence.js';
import type { MarketView } from './checks/marketView.js';
import { NonceAllocator } from './nonces/nonceAllocator.js';
import { parseNonceState, type NoncePair } from './nonces/noncePair.js';
import { OrderTracker, type TrackedFill, type TrackedOrder } from './tracking/orderTracker.js';
import { rejection } from './intents/rejection.js';
import { readVenueSnapshot } from './tracking/venueSnapshot.js';

/**
 * The execution engine: intents in, outcomes out. Owns the order tracker, the nonce allocator,
 * the guard gate and the executor; reads the venue's private feeds to keep its state; reconciles
 * from REST at start and after every reconnect; never lets two intents share a nonce.
 */
export interface EngineFeeds {
  readonly orders: Observable<OrdersMessage>;
  readonly positions: Observable<PositionsMessage>;
  readonly fills: Observable<FillsMessage>;
  readonly account: Observable<AccountMessage>;
  readonly oracle: Observable<OracleMessage>;
  /**
   * The connection's states (the WebSocket client's `connectionState$`): leaving `authenticated`
   * makes the engine degraded; coming back reconciles through REST, which lifts it.
   */
  readonly connection?: Observable<ConnectionStatusView>;
  /** Emits after each reconnect (once re-authenticated): the engine reconciles through REST. For feeds without `connection`. */
  readonly reconnected?: Observable<unknown>;
}

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
  readonly log: ExecutorLogger;
  /** Markets to reconcile (open orders, positions); all markets when absent. */
  readonly markets?: readonly number[];
  readonly permitDeadlineSeconds?: number;
  /** Longest an intent waits on a guard (rate limits, in-flight orders) before it is refused. */
  readonly maxGuardWaitMs?: number;
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
}

export class Engine {
  readonly tracker = new OrderTracker();
  private readonly outcomeSubject = new Subject<IntentOutcome>();
  readonly outcomes$: Observable<IntentOutcome> = this.outcomeSubject.asObservable();
  readonly orders$: Observable<TrackedOrder> = this.tracker.orders$;
  readonly fills$: Observable<TrackedFill> = this.tracker.fills$;
  private readonly reconnectSubject = new Subject<{ readonly lostAtMs: number }>();
  /**
   * The one reconnect stream: emits each time the followed connection is back (re-authenticated)
   * after a loss, with `lostAtMs`, when the engine went degraded (at or before the loss): the
   * start of the window a reconciliation must cover. Other reconcilers (the journal) follow this
   * rather than the connection, so every reconciler sees the same reconnects.
   */
  readonly reconnects$: Observable<{ readonly lostAtMs: number }> = this.reconnectSubject.asObservable();

  private context: SigningContext | undefined;
  private allocator: NonceAllocator | undefined;
  private marketsById = new Map<number, Market>();
  /** Live marks newer than their market's record in `marketsById` (see `marketRecord`). */
  private readonly freshMarks = new Map<number, string>();
  private readonly gate: AdmissionGate;
  /** The one count of admitted actions not yet settled, shared by every admission scope. */
  readonly inFlight: InFlightActions;
  /** Degraded, reconciling or stopped: judged before the guards; see `tradingState$`. */
  readonly conditions: TradingConditions;
  readonly tradingState$: Observable<TradingState>;
  private outageWatch: OutageWatch | undefined;
  private readonly stops = new Map<StopCause, number>();
  private hooks: EngineHooks = {};
  private stopReported = false;
  private readonly pending = new Map<string, Promise<IntentOutcome>>();
  private readonly abort = new AbortController();
  private readonly subscriptions = new Subscription();
  private readonly pnl = new SessionPnl();
  private readonly clientOrderIds: ClientOrderIds;
  private stopped = false;
  /** Bumped by every reconnect: an older reconciliation's retries stand down. */
  private reconcileRound = 0;
  private readonly journal: EngineJournal;
  private signerRefused: unknown;
  private venueRefresh: Promise<void> | undefined;
  private deps:
    { readonly context: SigningContext; readonly allocator: NonceAllocator; readonly deps: ExecutorDeps } | undefined;

  constructor(private readonly options: EngineOptions) {
    this.clientOrderIds = new ClientOrderIds(
      options.clock.now(),
      options.config.nonces.slot,
      options.config.nonces.slots,
    );
    this.journal = options.journal ?? NO_JOURNAL;
    // Every intent in flight (hundreds in a burst) listens on this one stop signal while it waits
    // for a nonce, a guard or the network, and removes its listener when done.
    setMaxListeners(0, this.abort.signal);
    this.inFlight = new InFlightActions(options.clock);
    this.conditions = new TradingConditions(options.clock);
    this.tradingState$ = this.conditions.state$;
    const degraded = options.config.degraded;
    this.gate = new AdmissionGate({
      name: 'account',
      config: options.config.guards,
      clock: options.clock,
      maxWaitMs: options.maxGuardWaitMs ?? 30_000,
      inFlight: this.inFlight,
      accountState: () => this.tracker.accountState(),
      conditions: { verdict: (intent) => this.conditions.verdict(intent, degraded) },
      closePosition: (intent) => this.closeBeforeSwitch(intent),
      onKillSwitchTripped: (reason) => void this.onKillSwitch(reason),
    });
  }

  get signingContext(): SigningContext | undefined {
    return this.context;
  }

  get killSwitch(): { tripped: boolean; reason?: string } {
    return this.gate.killSwitch;
  }

  /** The session's PnL as the kill switch judges it (undefined until a balance is seen): for status and metrics. */
  sessionPnl(): PnlSnapshot | undefined {
    return this.pnl.snapshot();
  }

  market(marketId: number): MarketView | undefined {
    return this.marketRecord(marketId);
  }

  markets(): readonly Market[] {
    for (const marketId of [...this.freshMarks.keys()]) this.marketRecord(marketId);
    return [...this.marketsById.values()];
  }

  /** The market's record with its live mark: copied here, on the first read after the mark moved. */
  private marketRecord(marketId: number): Market | undefined {
    const mark = this.freshMarks.get(marketId);
    if (mark !== undefined) {
      this.freshMarks.delete(marketId);
      const market = this.marketsById.get(marketId);
      if (market !== undefined) this.marketsById.set(marketId, { ...market, mark_price: mark });
    }
    return this.marketsById.get(marketId);
  }

  /** Reads domain, system config, markets and nonce state, then reconciles orders and positions. */
  async start(): Promise<void> {
    const { rest } = this.options;
    await this.refreshVenueInfo();
    await this.refreshMarkets();
    const nonceState = parseNonceState(await rest.nonceState(this.options.account));
    this.allocator = new NonceAllocator(this.options.account, nonceState, {
      slots: this.options.config.nonces,
      ...(this.options.restoredNonceHighWater === undefined
        ? {}
        : { restoredHighWater: this.options.restoredNonceHighWater }),
    });
    await this.reconcile();
  }

  /**
   * Reads the signing domain and the system config again (spec: contract addresses change on
   * redeploys and are read at runtime). Permits signed afterwards use the new router as target.
   * Returns whether the router or the domain changed.
   */
  async refreshVenueInfo(): Promise<{ changed: boolean }> {
    const { rest } = this.options;
    const [domain, system] = await Promise.all([rest.eip712Domain(), rest.systemConfig()]);
    const next = createSigningContext(
      parseDomain({
        name: domain.name,
        version: domain.version,
        chain_id: domain.chain_id.toString(),
        verifying_contract: domain.verifying_contract,
      }),
      system.addresses.router,
    );
    const before = this.context;
    this.context = next;
    return { changed: before !== undefined && !sameSigningContext(before, next) };
  }

  /** Why trading stopped for good (the venue refused our signer), or undefined while trading. */
  get tradingStopped(): string | undefined {
    return this.signerRefused === undefined ? undefined : 'the venue refused the signer (SignerNotAuthorized)';
  }

  async refreshMarkets(): Promise<void> {
    const markets = await this.options.rest.markets();
    this.marketsById = new Map(markets.markets.map((m) => [Number(m.market_id), m]));
    this.freshMarks.clear();
    for (const m of markets.markets) this.gate.setMark(Number(m.market_id), m.mark_price);
  }

  /**
   * The live mark (oracle feed): market orders take their slippage bound from it and the guards
   * value positions with it, so a stale mark from the start-up read must never be used.
   */
  setMark(marketId: number, markPrice: string): void {
    // Every oracle frame carries every market: the record is copied when next read, not per frame.
    if (this.marketsById.has(marketId)) this.freshMarks.set(marketId, markPrice);
    this.gate.setMark(marketId, markPrice);
  }

  /** Open orders, positions and balance from REST, as the truth after a start or a reconnect. */
  async reconcile(): Promise<void> {
    const ids = this.options.markets ?? [...this.marketsById.keys()];
    const snapshot = await readVenueSnapshot(this.options.rest, this.options.account, ids);
    this.tracker.onPositions(snapshot.positions);
    // Isolated balances before the balance: the session's starting equity includes them.
    this.pnl.onPositions(snapshot.positions);
    for (const [marketId, pnl] of snapshot.unrealized) this.pnl.onUnrealized(marketId, pnl);
    this.tracker.onOrderRecords(snapshot.orders, true);
    this.tracker.onBalance(snapshot.balance);
    this.pnl.onBalance(snapshot.balance);
  }

  /**
   * Follows the venue's private feeds and the oracle; reconciles after every reconnect. While the
   * connection is down or not yet reconciled the engine is degraded (`tradingState$`): it opens
   * nothing and resumes by itself. Only definite conditions stop trading for good, each reported
   * once through `hooks.onStopped` (and counted, `stopCounts`): a feed that fails for good (a
   * private channel whose signer is not Active, a refused subscription, a handler that threw), an
   * outage longer than `degraded.maxOutageMs` with policy `stop`, or a signer the venue still
   * refuses after the system config was read again. Nothing is rethrown to RxJS, which would
   * report it asynchronously as unhandled.
   */
  attach(feeds: EngineFeeds, hooks: EngineHooks = {}): void {
    this.hooks = hooks;
    // A loss awaiting confirmation stops with the feeds that reported it.
    this.subscriptions.add(() => this.gate.dispose());
    const lost = (channel: string, cause: unknown): void => {
      const error = new FeedLostError(channel, cause);
      if (this.stopped) {
        this.options.log.info({ err: error, channel }, 'a venue feed ended while the engine stops');
        return;
      }
      this.options.log.error({ err: error, channel }, 'a venue feed failed: trading stopped (kill switch tripped)');
      this.gate.trip(`feed lost: ${error.message}`);
      if (!this.stopReported) hooks.onFeedLost?.(error);
      this.stopTrading(feedLossCause(cause), error.message, error);
    };
    const follow = <T>(channel: keyof EngineFeeds, source: Observable<T>, next: (message: T) => void): void => {
      this.subscriptions.add(
        source.subscribe({
          next: (message) => {
            try {
              next(message);
            } catch (error) {
              lost(channel, error);
            }
          },
          error: (error: unknown) => lost(channel, error),
        }),
      );
    };
    follow('orders', feeds.orders, (m) => this.tracker.onOrderRecords(m.orders, m.type === 'snapshot'));
    follow('positions', feeds.positions, (m) => {
      this.tracker.onPositions(m.positions);
      this.pnl.onPositions(m.positions);
      this.checkLoss();
    });
    follow('fills', feeds.fills, (m) => this.tracker.onFill(m.fill));
    follow('account', feeds.account, (m) => {
      this.tracker.onBalance(m.account.balance);
      this.pnl.onBalance(m.account.balance);
      this.checkLoss();
    });
    follow('oracle', feeds.oracle, (m) => {
      for (const [marketId, price] of m.prices)
        if (price.markPrice !== undefined) this.setMark(marketId, price.markPrice);
    });
    if (feeds.connection !== undefined) {
      this.conditions.registerReconciler('engine');
      this.subscriptions.add(
        followConnection(feeds.connection, this.conditions, () => {
          // Still degraded here (every reconciler is due), so sinceMs is when the loss began.
          const lostAtMs = this.conditions.state.sinceMs;
          void this.reconcileAfterReconnect();
          this.reconnectSubject.next({ lostAtMs });
        }),
      );
      this.watchOutages();
    }
    if (feeds.reconnected !== undefined) {
      follow('reconnected', feeds.reconnected, () => {
        this.reconcile().catch((error: unknown) =>
          this.options.log.error({ err: error }, 'reconciliation after reconnect failed'),
        );
      });
    }
  }

  /** How many times trading stopped for each definite cause (0 or 1 per process, as a metric). */
  get stopCounts(): ReadonlyMap<StopCause, number> {
    return this.stops;
  }

  /** Degraded periods so far and the longest that ended (ms); zero when no connection is followed. */
  get degradedStats(): { readonly periods: number; readonly longestMs: number } {
    return this.outageWatch?.stats ?? { periods: 0, longestMs: 0 };
  }

  /**
   * The reconciliation after a reconnect, retried with backoff while it fails (the engine stays
   * degraded meanwhile, with the reason). A newer reconnect's reconciliation takes over.
   */
  private async reconcileAfterReconnect(): Promise<void> {
    const { log, clock } = this.options;
    const round = ++this.reconcileRound;
    try {
      await withRetry(
        async () => {
          if (round !== this.reconcileRound) return;
          this.conditions.reconcileStarted('engine');
          try {
            await this.reconcile();
            if (round === this.reconcileRound) this.conditions.reconcileSucceeded('engine');
          } catch (error) {
            this.conditions.reconcileFailed(
              'engine',
              `the engine's reconciliation after a reconnect failed (${error instanceof Error ? error.message : String(error)})`,
              ['the engine retries it with backoff'],
            );
            throw error;
          }
        },
        {
          attempts: Number.POSITIVE_INFINITY,
          delayMs: exponentialBackoff({ baseMs: 1_000, maxMs: 30_000 }),
          shouldRetry: () => round === this.reconcileRound && !this.stopped,
          clock,
          signal: this.abort.signal,
          onRetry: ({ attempt, delayMs, error }) =>
            log.warn(
              { err: error, attempt, delayMs },
              `reconciliation after a reconnect failed: trading stays degraded; retrying in ${delayMs} ms`,
            ),
        },
      );
    } catch (error) {
      if (!this.stopped) log.error({ err: error }, 'reconciliation after a reconnect gave up');
    }
  }

  private watchOutages(): void {
    const { degraded } = this.options.config;
    this.outageWatch = new OutageWatch(this.conditions, this.options.clock, degraded.maxOutageMs, (state) => {
      const reason = `degraded for more than ${degraded.maxOutageMs} ms (${state.reasons.join('; ')})`;
      this.options.log.error(
        { reasons: state.reasons, maxOutageMs: degraded.maxOutageMs, policy: degraded.onMaxOutage },
        `outage too long: kill switch tripped; ${degraded.onMaxOutage === 'stop' ? 'stopping' : 'waiting for the feeds'}`,
      );
      this.gate.trip(`outage: ${reason}`);
      if (degraded.onMaxOutage === 'stop') this.stopTrading('outage_exceeded', reason);
    });
    this.subscriptions.add(() => this.outageWatch?.dispose());
    // One line when a degraded period begins and one when it ends; the reasons in between are on tradingState$.
    let previous = this.conditions.state;
    this.subscriptions.add(
      this.conditions.state$.subscribe((state) => {
        if (state.mode === previous.mode) return;
        if (state.mode === 'degraded')
          this.options.log.warn(
            { reasons: state.reasons },
            'trading degraded: opening intents refused (FEED_DOWN), cancels and reduce-only go through',
          );
        else if (state.mode === 'trading' && previous.mode === 'degraded')
          this.options.log.info(
            { degradedMs: state.sinceMs - previous.sinceMs },
            'trading resumed: feeds up and reconciled',
          );
        previous = state;
      }),
    );
  }

  /** A definite condition: nothing more is admitted; reported once through `onStopped`. */
  private stopTrading(cause: StopCause, reason: string, causeError?: unknown): void {
    this.gate.trip(`trading stopped (${cause}): ${reason}`);
    this.conditions.stop(reason);
    if (this.stopReported) return;
    this.stopReported = true;
    this.stops.set(cause, (this.stops.get(cause) ?? 0) + 1);
    const error = new TradingStoppedError(cause, reason, causeError);
    this.options.log.error({ cause, reason }, `trading stopped: ${cause}`);
    this.hooks.onStopped?.(error);
  }

  /** Queues an intent; its outcome arrives on `outcomes$`. */
  submit(intent: Intent): void {
    void this.execute(intent);
  }

  /** Runs an intent to its terminal outcome (also published on `outcomes$`). */
  execute(intent: Intent): Promise<IntentOutcome> {
    this.journal.intentReceived(intent, this.options.clock.now());
    const run = this.run(intent).then((outcome) => {
      this.pending.delete(intent.intentId);
      this.inFlight.release(intent.intentId);
      this.journal.outcome(outcome);
      this.outcomeSubject.next(outcome);
      return outcome;
    });
    this.pending.set(intent.intentId, run);
    return run;
  }

  /** Cancels every open order a strategy placed. */
  async cancelOrdersOf(strategy: string): Promise<void> {
    const open = this.tracker.openOrders({ strategy });
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

  tripKillSwitch(reason: string): void {
    this.gate.trip(reason);
  }

  resetKillSwitch(): void {
    this.gate.reset();
  }

  /** Resolves once every intent submitted so far has its terminal outcome. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending.values()]);
  }

  /** Stops taking intents, aborts waits, and lets in-flight sends finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort(new PerpbotError('engine stopped', { code: 'ENGINE_STOPPED' }));
    await Promise.allSettled([...this.pending.values()]);
    this.subscriptions.unsubscribe();
    this.outcomeSubject.complete();
  }

  private async run(intent: Intent): Promise<IntentOutcome> {
    const base = {
      intentId: intent.intentId,
      strategy: intent.strategy,
      kind: intent.kind,
      marketId: intent.marketId,
      atMs: this.options.clock.now(),
    };
    if (this.stopped)
      return {
        ...base,
        type: 'refused',
        rejection: rejection('engine_stopped', intent.kind, 'the engine is stopping; no new intents'),
      };
    if (this.signerRefused !== undefined) {
      return {
        ...base,
        type: 'refused',
        rejection: rejection(
          'engine_stopped',
          intent.kind,
          'trading stopped: the venue refused the signer (SignerNotAuthorized)',
          'check that permit target is addresses.router, then restart',
        ),
      };
    }
    if (intent.kind === 'cancel' && 'intentId' in intent.target) {
      // Cancelling an order whose placement is still in flight: wait for the placement first.
      await this.pending.get(intent.target.intentId);
    }
    // Object.assign, not a spread: a spread that adds a field costs about a microsecond in V8.
    const prepared =
      isPlaceIntent(intent) && intent.clientOrderId === undefined
        ? Object.assign({}, intent, { clientOrderId: this.clientOrderIds.next() })
        : intent;
    try {
      return await executeIntent(prepared, this.executorDeps(), this.abort.signal);
    } catch (error) {
      this.options.log.error({ err: error, intentId: intent.intentId }, 'intent failed unexpectedly');
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

  /**
   * The executor's view of this engine, built once per signing context and allocator (they change
   * on a refresh or a restart) rather than per intent: a dozen closures per intent showed up in
   * the engine's profile as allocation and garbage collection.
   */
  private executorDeps(): ExecutorDeps {
    const context = this.context;
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
      market: (id) => this.marketRecord(id),
      guard: (intent, state) => this.gate.admit(intent, this.abort.signal, state),
      guardNow: (intent, state) => this.gate.admitNow(intent, state),
      readNonceState: async () => parseNonceState(await o.rest.nonceState(o.account)),
      lookupRestingId: async (marketId, orderId) => {
        const open = await o.rest.openOrders({ account: o.account, market_id: String(marketId) });
        const found = open.orders.find((x) => x.order_id.toLowerCase() === orderId.toLowerCase());
        return found === undefined ? undefined : BigInt(found.resting_order_id);
      },
      readLandingEvidence: (intent, action, request, signal) =>
        readLandingEvidence(landing, intent.intentId, action, request, signal),
      onSignerNotAuthorized: async (error) => {
        // Every intent in flight may hit this at once: stop and refresh once, all wait for it.
        if (this.signerRefused !== undefined) return this.venueRefresh;
        this.signerRefused = error;
        o.log.error(
          { err: error },
          'the venue refused our signer: trading stopped; check permit target = addresses.router',
        );
        this.venueRefresh = this.refreshAfterSignerRefused();
        return this.venueRefresh;
      },
    };
  }

  /**
   * SignerNotAuthorized is definite only once it survives a fresh read of the system config: when
   * the domain or router changed (a redeploy), permits signed from now on use the new addresses
   * and trading resumes; when nothing changed (or the config cannot be read), the signer itself is
   * refused and trading stops.
   */
  private async refreshAfterSignerRefused(): Promise<void> {
    const { log } = this.options;
    try {
      const { changed } = await this.refreshVenueInfo();
      if (changed) {
        log.warn({}, "the venue's domain or router changed: permits now use the new addresses; trading resumes");
        this.signerRefused = undefined;
        return;
      }
      this.stopTrading(
        'signer_not_authorized',
        'the venue refused the signer (SignerNotAuthorized) and the system config is unchanged: the signer itself is refused (revoked?)',
      );
    } catch (refreshError) {
      log.error({ err: refreshError }, 'refreshing the system config failed');
      this.stopTrading(
        'signer_not_authorized',
        'the venue refused the signer (SignerNotAuthorized) and the system config could not be read again',
        refreshError,
      );
    }
  }

  private async closeBeforeSwitch(intent: Intent): Promise<boolean> {
    const outcome = await this.execute(
      closePositionIntent({
        intentId: `${intent.intentId}-close`,
        strategy: intent.strategy,
        marketId: intent.marketId,
      }),
    );
    if (outcome.type !== 'accepted') return false;
    // Wait (bounded) until the venue reports the market flat.
    for (let i = 0; i < 100; i++) {
      const position = this.tracker.position(intent.marketId);
      if (position === undefined || compareDecimals(position.size, '0') === 0) return true;
      await this.options.clock.sleep(100, this.abort.signal);
      if (i % 10 === 9) await this.reconcile();
    }
    return false;
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

  private checkLoss(): void {
    const pnl = this.pnl.snapshot();
    if (pnl !== undefined) this.gate.watchPnl(pnl);
  }
}

/** A feed lost to a revoked signer is a signer condition; anything else, the feed's. */
function feedLossCause(cause: unknown): StopCause {
  return cause instanceof SignerNotActiveError ? 'signer_not_active' : 'feed_lost';
}

function sameSigningContext(a: SigningContext, b: SigningContext): boolean {
  return (
    a.router.toLowerCase() === b.router.toLowerCase() &&
    a.separator.length === b.separator.length &&
    a.separator.every((byte, i) => byte === b.separator[i])
  );
}
