import { asyncScheduler, filter, NEVER, of, Subscription, take, type Observable, type SchedulerLike } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { Intent } from '../engine/intents/intents.js';
import { contextStreams, LatestMarketData } from './contextStreams.js';
import { sendFinalIntents } from './finalIntents.js';
import { createIntentFactory } from './intentFactory.js';
import { standaloneLedger, type PnlSource } from './standaloneLedger.js';
import { strategyClock } from './strategyClock.js';
import type { StrategyContext, StrategyLogger, StrategyStorage, StrategyStreams } from './strategyContext.js';
import type { StrategyDefinition } from './strategyDefinition.js';
import { parseStrategyParams } from './strategyParams.js';
import { marketsReady } from './strategyReadiness.js';
import { outsideStrategyScope, runInStrategyScope, type StrategyScope } from './strategyScope.js';
import { containStrategyErrors, inStrategyScope } from './strategyScopeStreams.js';
import type { OrderEvent } from './orderEvents.js';
import type { PnlView, StateSnapshot, TradingStateView } from './strategyViews.js';
import { detach } from '../core/detach.js';

/** What the host needs from the engine: a place to send intents and their outcomes. */
export interface ExecutionPort {
  submit(intent: Intent): void;
  readonly outcomes: Observable<IntentOutcome>;
  /** Cancels the open orders placed by a strategy (its `on_error: cancel` policy). */
  cancelOrdersOf(strategy: string): Promise<void>;
}

export interface HostLogger extends StrategyLogger {
  child(bindings: Record<string, unknown>): HostLogger;
}

export interface HostedStrategy {
  /** Instance name from the config (several instances of one definition may run). */
  readonly name: string;
  readonly definition: StrategyDefinition;
  readonly params: unknown;
  readonly markets: readonly number[];
  readonly onError: 'cancel' | 'keep';
  /** Where its params live in the config, for error messages ("strategies[0].params"). */
  readonly configPath: string;
}

export interface StrategyHostOptions {
  readonly strategies: readonly HostedStrategy[];
  readonly streams: StrategyStreams;
  readonly state: StateSnapshot;
  readonly execution: ExecutionPort;
  readonly logger: HostLogger;
  readonly clock: Clock;
  readonly runId: string;
  /** Each strategy's durable key-value state (optional). */
  readonly storage?: (strategy: string) => StrategyStorage;
  /** The scheduler strategies' timing runs on (`ctx.clock.scheduler`); the wall clock by default. */
  readonly scheduler?: SchedulerLike;
  /**
   * Whether `run` waits until the strategy is ready (its `ready` signal, or by default a mark and
   * a book for each of its markets and the engine trading). The runtime and the test kit wait;
   * off by default for embedders that feed streams by hand.
   */
  readonly waitUntilReady?: boolean;
  /**
   * Whether the mark read from the venue's market list at start-up (`state.market(id).mark_price`)
   * is each market's first mark, before the oracle's first update (the runtime: yes).
   */
  readonly marksFromState?: boolean;
  /**
   * The engine's ledger of fills and PnL (`engine.ledger`), what `ctx.pnl` reads. Without it the
   * host books `streams.fills()` in a ledger of its own, seeded with the positions `state` shows.
   */
  readonly ledger?: PnlSource;
  /**
   * The engine's order events (`engine.orderEvents$`): each strategy's `ctx.orderEvents` is this
   * stream filtered to its own orders (none when absent).
   */
  readonly orderEvents?: Observable<OrderEvent>;
  /** How long a stopping strategy's `onStop` and final intents may take (default 10 s). */
  readonly stopTimeoutMs?: number;
  /**
   * Whether a stopping strategy's orders (resting, queued and in flight) are cancelled before its
   * `onStop` runs, so no quote can fill after its flattening order (default true; the runtime
   * passes false with `shutdown.open_orders: keep`).
   */
  readonly cancelOrdersOnStop?: boolean;
  /** Called once when every strategy has declared itself done. */
  readonly onAllDone?: () => void;
}

/**
 * `waiting` for readiness, `running`, `stopping` (its onStop and final intents), then `done` (it
 * said so, or `run` completed), `stopped` (by the host) or `failed`.
 */
export type StrategyStatus = 'waiting' | 'running' | 'stopping' | 'done' | 'stopped' | 'failed';

interface Running {
  readonly hosted: HostedStrategy;
  readonly context: StrategyContext;
  readonly scope: StrategyScope;
  /** Every subscription to the streams this strategy was given, returned or not. */
  readonly resources: Subscription;
  subscription: Subscription | undefined;
  status: StrategyStatus;
  /** Set when the host ends it (stop, done or failure): a late error changes nothing. */
  halted: boolean;
  /** Its wind-down, once begun. */
  winding?: Promise<void>;
  /** Intents sent and not yet answered by an outcome. */
  readonly inFlight: Set<string>;
  /** Called when the last of them is answered (while the wind-down waits for it). */
  onSettled?: () => void;
  error?: unknown;
}

const DEFAULT_STOP_TIMEOUT_MS = 10_000;

/**
 * Runs several strategies in one process, each with its own params, markets and logger. A
 * strategy that throws or whose stream errors is stopped and logged, its orders handled per its
 * `on_error` policy; the others go on. That holds for a throw in a subscription the strategy made
 * itself, in a timer or in a promise too: the host runs each strategy's code in its own scope
 * (`strategyScope.ts`), and the errors RxJS and Node report later are traced back to it.
 *
 * Life of a strategy: `onStart`, the wait for readiness, `run`; then, on the host's stop or when
 * the strategy is done, `run` is unsubscribed, `onStop` runs and its final intents are sent and
 * waited for, and only then are the strategy's own subscriptions ended.
 */
export class StrategyHost {
  private readonly running: Running[] = [];
  private readonly shared = new Subscription();
  private readonly latest: LatestMarketData;
  private pnl: PnlSource | undefined;
  private readonly scheduler: SchedulerLike;
  private allDoneReported = false;

  constructor(private readonly options: StrategyHostOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.latest = new LatestMarketData(
      options.streams,
      this.shared,
      options.marksFromState === true ? (id) => options.state.market(id)?.mark_price : undefined,
    );
    this.pnl = options.ledger;
  }

  /** Validates every strategy's params first (nothing starts on a bad config), then starts all. */
  async start(): Promise<void> {
    const prepared = this.options.strategies.map((hosted) => ({ hosted, params: parseStrategyParams(hosted) }));
    containStrategyErrors();
    this.followEngine();
    for (const { hosted, params } of prepared) {
      const resources = new Subscription();
      // Called only once `running` exists: errors reach a scope after its strategy's code ran.
      const scope: StrategyScope = { strategy: hosted.name, fail: (error) => this.failLater(running, error) };
      const context = this.contextFor(hosted, params, scope, resources, () => this.markDone(running));
      const running: Running = {
        hosted,
        context,
        scope,
        resources,
        subscription: undefined,
        status: 'waiting',
        halted: false,
        inFlight: new Set(),
      };
      this.running.push(running);
      try {
        await runInStrategyScope(scope, async () => {
          await hosted.definition.onStart?.(context);
          this.whenReady(running);
        });
      } catch (error) {
        await this.fail(running, error);
      }
    }
  }

  /** Stops every strategy still active: each one's `onStop` and final intents, in parallel, within the stop timeout. */
  async stop(): Promise<void> {
    await Promise.all(
      this.running.map((entry) =>
        // One already ended or winding down is waited for too (never wound down: nothing to wait for).
        entry.status === 'waiting' || entry.status === 'running'
          ? this.windDown(entry, 'stopped')
          : (entry.winding ?? Promise.resolve()),
      ),
    );
    this.shared.unsubscribe();
  }

  /** A strategy's own PnL now (`ctx.pnl.own()`). */
  pnlOf(strategy: string): PnlView {
    return this.ledger().strategyPnl(strategy);
  }

  private ledger(): PnlSource {
    if (this.pnl === undefined)
      throw new PerpbotError('strategy host: PnL read before start()', {
        code: 'ENGINE_NOT_STARTED',
        hints: ['await host.start() first, or give the host the engine ledger'],
      });
    return this.pnl;
  }

  statuses(): ReadonlyMap<string, StrategyStatus> {
    return new Map(this.running.map((r) => [r.hosted.name, r.status]));
  }

  /** The engine's reports every strategy's views are derived from, followed before any strategy starts. */
  private followEngine(): void {
    const { execution, streams } = this.options;
    this.shared.add(
      execution.outcomes.subscribe((o) => {
        const entry = this.running.find((r) => r.hosted.name === o.strategy);
        if (entry?.inFlight.delete(o.intentId) === true && entry.inFlight.size === 0) entry.onSettled?.();
      }),
    );
    if (this.pnl === undefined) {
      const markets = [...new Set(this.options.strategies.flatMap((s) => s.markets))];
      const own = outsideStrategyScope(() =>
        standaloneLedger(this.options.state, streams.fills(), markets, (error) =>
          this.options.logger.error({ err: error }, 'strategy host: a fill could not be counted in PnL'),
        ),
      );
      this.pnl = own.ledger;
      this.shared.add(own.subscription);
    }
  }

  /** Subscribes `run` once the strategy is ready (at once unless the host waits for readiness). */
  private whenReady(entry: Running): void {
    const { definition } = entry.hosted;
    const ready: Observable<unknown> =
      definition.ready?.(entry.context) ??
      (this.options.waitUntilReady === true ? marketsReady(entry.context, this.scheduler) : of(true));
    const wait = ready.pipe(take(1)).subscribe({
      next: () => runInStrategyScope(entry.scope, () => this.run(entry)),
      error: (error: unknown) => this.failLater(entry, error),
    });
    entry.resources.add(wait);
  }

  private run(entry: Running): void {
    if (entry.status !== 'waiting') return;
    entry.status = 'running';
    const { context, hosted } = entry;
    try {
      const subscription = hosted.definition.run(context).subscribe({
        next: (intent) => this.accept(entry, intent),
        error: (error: unknown) => this.failLater(entry, error),
        // Its own subscriptions may still act (and fail): only ctx.done() ends it.
        complete: () => context.log.info({}, 'strategy completed'),
      });
      // `done` (or a failure) may have come while `run` was still subscribing.
      if (entry.status === 'running') entry.subscription = subscription;
      else subscription.unsubscribe();
    } catch (error) {
      this.failLater(entry, error);
      return;
    }
    context.log.info({ markets: hosted.markets }, 'strategy started');
  }

  private accept(entry: Running, intent: Intent): boolean {
    if (entry.status !== 'running' && entry.status !== 'stopping') return false;
    const { hosted } = entry;
    if (intent.strategy !== hosted.name) {
      this.failLater(
        entry,
        new PerpbotError(`strategy ${hosted.name} emitted an intent stamped for "${intent.strategy}"`, {
          code: 'STRATEGY_INTENT',
          hints: ['build intents with context.intents'],
        }),
      );
      return false;
    }
    if (!hosted.markets.includes(intent.marketId)) {
      this.failLater(
        entry,
        new PerpbotError(
          `strategy ${hosted.name} emitted an intent for market ${intent.marketId}, outside its markets [${hosted.markets.join(', ')}]`,
          {
            code: 'STRATEGY_INTENT',
            details: { intentId: intent.intentId, marketId: intent.marketId },
            hints: ["add the market to the strategy's `markets` in the config, or fix the strategy"],
          },
        ),
      );
      return false;
    }
    entry.inFlight.add(intent.intentId);
    // The engine's work is its own: an error in it later must not be taken for this strategy's.
    outsideStrategyScope(() => this.options.execution.submit(intent));
    return true;
  }

  /** The strategy said it is done: it winds down; the last one done reports it. */
  private markDone(entry: Running): void {
    if (entry.status !== 'running' && entry.status !== 'waiting') return;
    const reportAllDone = (): void => {
      if (this.allDoneReported || !this.running.every((r) => r.status === 'done')) return;
      this.allDoneReported = true;
      this.options.logger.info({ strategies: this.running.map((r) => r.hosted.name) }, 'every strategy is done');
      this.options.onAllDone?.();
    };
    detach(this.windDown(entry, 'done').then(reportAllDone), (err) =>
      this.options.logger.error(
        { err, strategy: entry.hosted.name },
        'strategy host: winding down a done strategy threw',
      ),
    );
  }

  /** `run` unsubscribed, then `onStop` and its final intents within the stop timeout, then its subscriptions end. */
  private windDown(entry: Running, end: 'done' | 'stopped'): Promise<void> {
    entry.winding ??= (async () => {
      entry.halted = true;
      entry.status = 'stopping';
      entry.subscription?.unsubscribe();
      const timeoutMs = this.options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
      const abort = new AbortController();
      const deadline = this.options.clock.sleep(timeoutMs, abort.signal).catch(() => undefined);
      try {
        // Its quotes off the book first: a quote that filled after the flattening order would reopen the position.
        if (this.options.cancelOrdersOnStop !== false) await Promise.race([this.cancelOrdersOf(entry), deadline]);
        // What it sent last has its outcome first, so onStop judges the state those intents left.
        if (entry.hosted.definition.onStop !== undefined) await Promise.race([this.settled(entry), deadline]);
        const returned = await Promise.race([
          runInStrategyScope(entry.scope, async () => entry.hosted.definition.onStop?.(entry.context)),
          deadline.then(() => undefined),
        ]);
        const result = await sendFinalIntents(
          returned,
          (intent) => runInStrategyScope(entry.scope, () => this.accept(entry, intent)),
          this.options.execution.outcomes,
          deadline,
        );
        if (result.sent > 0 || result.timedOut)
          entry.context.log.info({ ...result, timeoutMs }, 'final intents of the strategy sent');
      } catch (error) {
        entry.context.log.error({ err: error }, 'onStop failed');
      } finally {
        abort.abort();
        entry.resources.unsubscribe();
        if (entry.status === 'stopping') entry.status = end;
      }
      entry.context.log.info({ status: entry.status }, end === 'done' ? 'strategy done' : 'strategy stopped');
    })();
    return entry.winding;
  }

  /** Cancels the strategy's orders (a failure is logged: onStop still runs). */
  private async cancelOrdersOf(entry: Running): Promise<void> {
    try {
      await outsideStrategyScope(() => this.options.execution.cancelOrdersOf(entry.hosted.name));
    } catch (error) {
      entry.context.log.error({ err: error }, "could not cancel the strategy's orders before its onStop");
    }
  }

  /** Resolves once every intent the strategy sent has its outcome. */
  private settled(entry: Running): Promise<void> {
    if (entry.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => (entry.onSettled = resolve));
  }

  /** `fail` from a callback that cannot wait for it. */
  private failLater(entry: Running, error: unknown): void {
    detach(this.fail(entry, error), (err) =>
      this.options.logger.error(
        { err, strategy: entry.hosted.name },
        'strategy host: stopping a failed strategy threw',
      ),
    );
  }

  private async fail(entry: Running, error: unknown): Promise<void> {
    // A strategy whose stream completed may still run subscriptions of its own: their errors count.
    if (entry.status === 'failed' || entry.halted) {
      // A timer or promise the strategy left behind, after it failed or the host stopped it.
      entry.context.log.error({ err: error, status: entry.status }, 'error from a strategy that is no longer running');
      return;
    }
    entry.status = 'failed';
    entry.halted = true;
    entry.error = error;
    entry.subscription?.unsubscribe();
    entry.resources.unsubscribe();
    entry.context.log.error({ err: error, onError: entry.hosted.onError }, 'strategy failed and was stopped');
    if (entry.hosted.onError === 'cancel') {
      try {
        await outsideStrategyScope(() => this.options.execution.cancelOrdersOf(entry.hosted.name));
      } catch (cancelError) {
        entry.context.log.error({ err: cancelError }, "could not cancel the failed strategy's orders");
      }
    }
  }

  private contextFor(
    hosted: HostedStrategy,
    params: unknown,
    scope: StrategyScope,
    resources: Subscription,
    done: () => void,
  ): StrategyContext {
    const log = this.options.logger.child({ strategy: hosted.name });
    const own = <T extends { readonly strategy?: string }>(source: Observable<T>): Observable<T> =>
      source.pipe(
        filter((o) => o.strategy === hosted.name),
        inStrategyScope(scope, resources),
      );
    const trading = currentTradingState(this.options.streams, hosted.name, this.options.clock, resources);
    return Object.freeze({
      name: hosted.name,
      params,
      markets: Object.freeze([...hosted.markets]),
      streams: contextStreams(this.options.streams, this.latest, scope, resources, this.scheduler, hosted.name),
      tradingState: trading,
      state: this.options.state,
      outcomes: own(this.options.execution.outcomes),
      orderEvents: own(this.options.orderEvents ?? NEVER),
      pnl: Object.freeze({
        session: () => this.ledger().accountPnl(),
        own: () => this.ledger().strategyPnl(hosted.name),
      }),
      intents: createIntentFactory(hosted.name, this.options.runId),
      log,
      clock: strategyClock(this.options.clock, this.scheduler),
      done: (reason?: string) => {
        log.info(reason === undefined ? {} : { reason }, 'strategy declared itself done');
        done();
      },
      ...(this.options.storage === undefined ? {} : { storage: this.options.storage(hosted.name) }),
    });
  }
}

/** A strategy's trading state now, kept from its stream for as long as the strategy's resources live. */
function currentTradingState(
  streams: StrategyStreams,
  strategy: string,
  clock: Clock,
  resources: Subscription,
): () => TradingStateView {
  // Until the stream says otherwise (an embedder's streams may start empty): trading, as the engine starts.
  let current: TradingStateView = { mode: 'trading', reasons: [], sinceMs: clock.now() };
  resources.add(
    streams.tradingState(strategy).subscribe({ next: (state) => (current = state), error: () => undefined }),
  );
  return () => current;
}
