import { setMaxListeners } from 'node:events';
import { Subject, Subscription } from 'rxjs';
import { detach } from '../core/detach.js';
import { VenueInfo } from '../venue/venueInfo.js';
import { AdmissionGate } from './admission/admissionGate.js';
import type { ActionAdmission } from './admission/admissionScope.js';
import { AdmissionPipeline } from './admission/admissionPipeline.js';
import { InFlightActions } from './admission/inFlightActions.js';
import { StrategyScopes } from './admission/strategyScopes.js';
import { TradingConditions } from './admission/tradingConditions.js';
import { VenueFollowing } from './connection/venueFollowing.js';
import type { EngineOptions } from './engineOptions.js';
import { CloseBeforeSwitch } from './guards/closeBeforeSwitch.js';
import { ClientOrderIds } from './intents/clientOrderIds.js';
import type { Intent } from './intents/intents.js';
import { SessionLedger } from './ledger/sessionLedger.js';
import type { NonceAllocator } from './nonces/nonceAllocator.js';
import { IntentPipeline } from './pipeline/intentPipeline.js';
import { StageDeps } from './pipeline/stageDeps.js';
import { StrategyProtections } from './protection/strategyProtections.js';
import { Quoting } from './quoting/quoting.js';
import { cancelEveryMarket, cancelOrdersOf, type OrderCancelsDeps } from './stopping/orderCancels.js';
import { openingRefusal, stoppingRefusal } from './stopping/openingRefusal.js';
import { SignerRefusal } from './stopping/signerRefusal.js';
import { TradingStop } from './stopping/tradingStop.js';
import { NO_JOURNAL } from './tracking/engineJournal.js';
import { OrderTracker } from './tracking/orderTracker.js';
import type { TrackedFill } from './tracking/trackedFill.js';

/** What changes over an engine's life: stopping, and the allocator `start()` opens. */
export interface EngineLife {
  stopped: boolean;
  allocator: NonceAllocator | undefined;
}

/** The engine's parts, composed once: the stages' pipeline and the side jobs around it. */
export interface EngineParts {
  readonly life: EngineLife;
  readonly abort: AbortController;
  readonly subscriptions: Subscription;
  readonly tracker: OrderTracker;
  readonly venue: VenueInfo;
  readonly ledger: SessionLedger;
  readonly inFlight: InFlightActions;
  readonly conditions: TradingConditions;
  readonly gate: AdmissionGate;
  readonly admission: AdmissionPipeline;
  readonly scopes: StrategyScopes;
  readonly tradingStop: TradingStop;
  readonly signerRefusal: SignerRefusal;
  readonly closer: CloseBeforeSwitch;
  readonly following: VenueFollowing;
  readonly pipeline: IntentPipeline;
  readonly quoting: Quoting;
  /** Which strategy protects which market (the config's, and what strategies asked at run time). */
  readonly protections: StrategyProtections;
  /** Every action the account's admission lets through, as it does (see `Engine.admissions$`). */
  readonly admissions: Subject<ActionAdmission>;
  setMark(marketId: number, markPrice: string): void;
  cancelOrdersOf(strategy: string): Promise<void>;
}

type Building = { -readonly [K in keyof EngineParts]: EngineParts[K] };

/**
 * Builds the engine from its options. Every part is given what it needs as narrow callbacks, so
 * no part knows the engine: the order model and the ledger, the admission (account gate, strategy
 * scopes), the side jobs (stopping, venue following), and the intent pipeline with the quoting.
 * The callbacks read the parts when called, after the assembly is done.
 */
export function assembleEngine(options: EngineOptions): EngineParts {
  const p = {} as Building;
  orderModel(p, options);
  admissionOf(p, options);
  sideJobs(p, options);
  pipelineOf(p, options);
  return p;
}

function orderModel(p: Building, options: EngineOptions): void {
  const { clock, log } = options;
  p.life = { stopped: false, allocator: undefined };
  p.abort = new AbortController();
  // Every intent in flight (hundreds in a burst) listens on this one stop signal while it waits.
  setMaxListeners(0, p.abort.signal);
  p.subscriptions = new Subscription();
  p.tracker = new OrderTracker(
    () => clock.now(),
    (refused, intentId) =>
      log.warn({ intentId, from: refused.from, to: refused.to }, `order change refused: ${refused.reason}`),
  );
  p.venue = new VenueInfo(options.rest);
  p.ledger = new SessionLedger((marketId) => p.venue.markOf(marketId));
  // First subscriber of the tracker's fills: the ledger is current when anyone else hears of one.
  p.subscriptions.add(p.tracker.fills$.subscribe((fill) => book(fill, p, options)));
  p.inFlight = new InFlightActions(clock);
  p.conditions = new TradingConditions(clock);
  p.admissions = new Subject<ActionAdmission>();
}

function admissionOf(p: Building, options: EngineOptions): void {
  const { clock, log, config } = options;
  const cancels = cancelsOf(p, options);
  p.closer = new CloseBeforeSwitch({
    execute: (intent) => p.pipeline.execute(intent),
    tracker: p.tracker,
    reconcile: () => p.following.reconcile(),
    clock,
    signal: p.abort.signal,
  });
  p.gate = new AdmissionGate({
    name: 'account',
    config: config.guards,
    clock,
    maxWaitMs: options.maxGuardWaitMs ?? 30_000,
    inFlight: p.inFlight,
    accountState: () => p.tracker.accountState(),
    conditions: { verdict: (intent) => p.conditions.verdict(intent, config.degraded) },
    closePosition: (intent) => p.closer.close(intent),
    onKillSwitchChanged: (s) => (s.tripped ? p.conditions.halt(s.reason ?? 'manual') : p.conditions.resume()),
    onAdmitted: (admission) => {
      if (p.admissions.observed) p.admissions.next(admission);
    },
    onKillSwitchTripped: (reason) => {
      // Every quote target goes with the orders, as a strategy's own trip takes its own: nothing is
      // wanted until a strategy states a target again after the reset (the quote uptime counts no halt).
      p.quoting.keeper.forget();
      detach(cancelEveryMarket(reason, cancels), (err) =>
        log.error({ err, reason }, 'kill switch: cancelling the orders failed; cancel them by hand'),
      );
    },
  });
  p.admission = new AdmissionPipeline({ account: p.gate, clock, log, signal: p.abort.signal });
  p.cancelOrdersOf = (strategy) => {
    // Its quote targets go with its orders: nothing is placed for them any more.
    p.quoting.keeper.forget(strategy);
    return cancelOrdersOf(strategy, cancels);
  };
  p.scopes = new StrategyScopes(p.admission, {
    clock,
    log,
    maxWaitMs: options.maxGuardWaitMs ?? 30_000,
    inFlight: p.inFlight,
    ordersOnVenue: (strategy) => p.tracker.orderCounts.onVenue(strategy),
    markOf: (marketId) => p.venue.markOf(marketId),
    bookOf: (strategy) => p.ledger.bookOf(strategy),
    cancelOrdersOf: (strategy) => p.cancelOrdersOf(strategy),
  });
  if (options.budgets !== undefined) p.scopes.use(options.budgets);
  p.subscriptions.add(p.tracker.fills$.subscribe((fill) => p.scopes.onFill(fill)));
}

function cancelsOf(p: Building, options: EngineOptions): OrderCancelsDeps {
  return { ...options, tracker: p.tracker, execute: (intent: Intent) => p.pipeline.execute(intent) };
}

function sideJobs(p: Building, options: EngineOptions): void {
  const { log, config } = options;
  p.tradingStop = new TradingStop({ trip: (reason) => p.gate.trip(reason), conditions: p.conditions, log });
  p.signerRefusal = new SignerRefusal({ venue: p.venue, tradingStop: p.tradingStop, log });
  p.setMark = (marketId, markPrice) => {
    p.venue.setMark(marketId, markPrice);
    p.gate.setMark(marketId, markPrice);
    if (p.ledger.holds(marketId)) checkLoss(p);
    p.scopes.revalueAll();
  };
  p.following = new VenueFollowing({
    ...options,
    degraded: config.degraded,
    tracker: p.tracker,
    conditions: p.conditions,
    tradingStop: p.tradingStop,
    subscriptions: p.subscriptions,
    signal: p.abort.signal,
    markets: () => options.markets ?? p.venue.marketIds(),
    trip: (reason) => p.gate.trip(reason),
    stopping: () => p.life.stopped,
    setMark: (marketId, markPrice) => p.setMark(marketId, markPrice),
  });
}

function pipelineOf(p: Building, options: EngineOptions): void {
  const { clock, log, config } = options;
  const stopping = (intent: Intent) => stoppingRefusal(intent, p.life.stopped, p.signerRefusal.refused);
  const stages = new StageDeps({
    ...options,
    journal: options.journal ?? NO_JOURNAL,
    tracker: p.tracker,
    authMode: options.authMode ?? 'permit',
    permitDeadlineSeconds: options.permitDeadlineSeconds ?? 60,
    context: () => p.venue.signing?.context,
    allocator: () => p.life.allocator,
    market: (id) => p.venue.checkedMarket(id),
    admit: (intent, state) => p.admission.admit(intent, state),
    admitNow: (intent, state) => p.admission.admitNow(intent, state),
    onSignerNotAuthorized: (error) => p.signerRefusal.onRefused(error),
  });
  p.protections = new StrategyProtections({
    marketKnown: (marketId) => p.venue.checkedMarket(marketId) !== undefined,
    now: () => clock.now(),
  });
  p.pipeline = new IntentPipeline({
    tracker: p.tracker,
    journal: options.journal ?? NO_JOURNAL,
    clock,
    log,
    clientOrderIds: new ClientOrderIds(clock.now(), config.nonces.slot, config.nonces.slots),
    signal: p.abort.signal,
    quoting: () => p.quoting,
    protections: p.protections,
    withdraw: (intentId) => p.admission.withdraw(intentId),
    refusal: stopping,
    stageDeps: () => stages.get(),
    admissionHold: options.admissionHold,
  });
  p.quoting = new Quoting({
    tracker: p.tracker,
    // Read at once for the grid and the mark, never kept: the live view, not a copy per mark move.
    market: (marketId) => p.venue.checkedMarket(marketId),
    execute: (intent, hold) => p.pipeline.execute(intent, hold),
    place: (placement, hold) => p.pipeline.run(placement, hold),
    cancelQueued: (intentId) => p.pipeline.cancelQueued(intentId),
    notTrading: (strategy, intent) => {
      const account = p.gate.killSwitch;
      const kill = account.tripped ? account : p.scopes.killSwitch(strategy);
      return openingRefusal(intent, { stopping: stopping(intent), kill, conditions: p.conditions, config });
    },
    now: () => clock.now(),
    onError: (err, intentId) => log.error({ err, intentId }, 'a quote action ended without an outcome'),
  });
}

/** The account's kill switch judges the ledger's account figure: fills and fees, at the marks. */
function checkLoss(p: Building): void {
  const pnl = p.ledger.accountLoss();
  if (pnl !== undefined) p.gate.watchPnl(pnl);
}

/** Books a counted fill and judges the account's loss again; a fill the ledger cannot take is logged, not thrown. */
function book(fill: TrackedFill, p: Building, options: EngineOptions): void {
  try {
    p.ledger.onFill(fill);
    checkLoss(p);
  } catch (err) {
    options.log.error({ err, fillId: fill.id }, 'a fill could not be booked in the ledger; PnL misses it');
  }
}
