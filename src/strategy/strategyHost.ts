import { filter, Subscription, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { IntentOutcome } from '../engine/intentOutcome.js';
import type { Intent } from '../engine/intents.js';
import { createIntentFactory } from './intentFactory.js';
import type { StrategyContext, StrategyLogger, StrategyStorage, StrategyStreams } from './strategyContext.js';
import type { StrategyDefinition } from './strategyDefinition.js';
import { StrategyParamsError } from './strategyParamsError.js';
import { containStrategyErrors, inStrategyScope, outsideStrategyScope, runInStrategyScope, type StrategyScope } from './strategyScope.js';
import type { StateSnapshot } from './strategyViews.js';

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
}

export type StrategyStatus = 'running' | 'stopped' | 'failed';

interface Running {
  readonly hosted: HostedStrategy;
  readonly context: StrategyContext;
  readonly scope: StrategyScope;
  /** Every subscription to the streams this strategy was given, returned or not. */
  readonly resources: Subscription;
  subscription: Subscription | undefined;
  status: StrategyStatus;
  /** Set by `stop()`: the host ended it, so a late error changes nothing. */
  halted: boolean;
  error?: unknown;
}

/**
 * Runs several strategies in one process, each with its own params, markets and logger. A
 * strategy that throws or whose stream errors is stopped and logged, its orders handled per its
 * `on_error` policy; the others go on. That holds for a throw in a subscription the strategy made
 * itself, in a timer or in a promise too: the host runs each strategy's code in its own scope
 * (`strategyScope.ts`), and the errors RxJS and Node report later are traced back to it.
 */
export class StrategyHost {
  private readonly running: Running[] = [];

  constructor(private readonly options: StrategyHostOptions) {}

  /** Validates every strategy's params first (nothing starts on a bad config), then starts all. */
  async start(): Promise<void> {
    const prepared = this.options.strategies.map((hosted) => ({ hosted, params: parseParams(hosted) }));
    containStrategyErrors();
    for (const { hosted, params } of prepared) {
      const resources = new Subscription();
      // Called only once `running` exists: errors reach a scope after its strategy's code ran.
      const scope: StrategyScope = { strategy: hosted.name, fail: (error) => void this.fail(running, error) };
      const context = this.contextFor(hosted, params, scope, resources);
      const running: Running = { hosted, context, scope, resources, subscription: undefined, status: 'running', halted: false };
      this.running.push(running);
      try {
        await runInStrategyScope(scope, async () => {
          await hosted.definition.onStart?.(context);
          running.subscription = hosted.definition.run(context).subscribe({
            next: (intent) => this.accept(running, intent),
            error: (error: unknown) => void this.fail(running, error),
            complete: () => {
              if (running.status === 'running') running.status = 'stopped';
              context.log.info({}, 'strategy completed');
            },
          });
        });
        context.log.info({ markets: hosted.markets }, 'strategy started');
      } catch (error) {
        await this.fail(running, error);
      }
    }
  }

  /** Stops every strategy (unsubscribe is the teardown), then runs their onStop hooks. */
  async stop(): Promise<void> {
    for (const entry of this.running) {
      entry.halted = true;
      entry.subscription?.unsubscribe();
      entry.resources.unsubscribe();
      if (entry.status === 'running') {
        entry.status = 'stopped';
        try {
          await runInStrategyScope(entry.scope, async () => entry.hosted.definition.onStop?.(entry.context));
        } catch (error) {
          entry.context.log.error({ err: error }, 'onStop failed');
        }
      }
    }
  }

  statuses(): ReadonlyMap<string, StrategyStatus> {
    return new Map(this.running.map((r) => [r.hosted.name, r.status]));
  }

  private accept(entry: Running, intent: Intent): void {
    if (entry.status !== 'running') return;
    const { hosted } = entry;
    if (intent.strategy !== hosted.name) {
      void this.fail(entry, new PerpbotError(`strategy ${hosted.name} emitted an intent stamped for "${intent.strategy}"`, { code: 'STRATEGY_INTENT', hints: ['build intents with context.intents'] }));
      return;
    }
    if (!hosted.markets.includes(intent.marketId)) {
      void this.fail(
        entry,
        new PerpbotError(`strategy ${hosted.name} emitted an intent for market ${intent.marketId}, outside its markets [${hosted.markets.join(', ')}]`, {
          code: 'STRATEGY_INTENT',
          details: { intentId: intent.intentId, marketId: intent.marketId },
          hints: ['add the market to the strategy\'s `markets` in the config, or fix the strategy'],
        }),
      );
      return;
    }
    // The engine's work is its own: an error in it later must not be taken for this strategy's.
    outsideStrategyScope(() => this.options.execution.submit(intent));
  }

  private async fail(entry: Running, error: unknown): Promise<void> {
    // A strategy whose stream completed may still run subscriptions of its own: their errors count.
    if (entry.status === 'failed' || entry.halted) {
      // A timer or promise the strategy left behind, after it failed or the host stopped it.
      entry.context.log.error({ err: error, status: entry.status }, 'error from a strategy that is no longer running');
      return;
    }
    entry.status = 'failed';
    entry.error = error;
    entry.subscription?.unsubscribe();
    entry.resources.unsubscribe();
    entry.context.log.error({ err: error, onError: entry.hosted.onError }, 'strategy failed and was stopped');
    if (entry.hosted.onError === 'cancel') {
      try {
        await outsideStrategyScope(() => this.options.execution.cancelOrdersOf(entry.hosted.name));
      } catch (cancelError) {
        entry.context.log.error({ err: cancelError }, 'could not cancel the failed strategy\'s orders');
      }
    }
  }

  private contextFor(hosted: HostedStrategy, params: unknown, scope: StrategyScope, resources: Subscription): StrategyContext {
    const log = this.options.logger.child({ strategy: hosted.name });
    return Object.freeze({
      name: hosted.name,
      params,
      markets: Object.freeze([...hosted.markets]),
      streams: scopedStreams(this.options.streams, scope, resources),
      state: this.options.state,
      outcomes: this.options.execution.outcomes.pipe(
        filter((o) => o.strategy === hosted.name),
        inStrategyScope(scope, resources),
      ),
      intents: createIntentFactory(hosted.name, this.options.runId),
      log,
      clock: this.options.clock,
      ...(this.options.storage === undefined ? {} : { storage: this.options.storage(hosted.name) }),
    });
  }
}

function parseParams(hosted: HostedStrategy): unknown {
  const result = hosted.definition.params.safeParse(hosted.params ?? {});
  if (!result.success) throw new StrategyParamsError(hosted.name, hosted.configPath, result.error.issues);
  return result.data;
}

/** The shared streams as one strategy sees them (see `inStrategyScope`). */
function scopedStreams(streams: StrategyStreams, scope: StrategyScope, owner: Subscription): StrategyStreams {
  const scoped = <T>(source: Observable<T>): Observable<T> => source.pipe(inStrategyScope(scope, owner));
  return Object.freeze({
    book: (marketId: number) => scoped(streams.book(marketId)),
    mark: (marketId: number) => scoped(streams.mark(marketId)),
    trades: (marketId: number) => scoped(streams.trades(marketId)),
    fills: () => scoped(streams.fills()),
    positions: () => scoped(streams.positions()),
    orders: () => scoped(streams.orders()),
    balance: () => scoped(streams.balance()),
  });
}
