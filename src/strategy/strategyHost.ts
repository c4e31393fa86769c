import { filter, Subscription, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { IntentOutcome } from '../engine/intentOutcome.js';
import type { Intent } from '../engine/intents.js';
import { createIntentFactory } from './intentFactory.js';
import type { StrategyContext, StrategyLogger, StrategyStorage, StrategyStreams } from './strategyContext.js';
import type { StrategyDefinition } from './strategyDefinition.js';
import { StrategyParamsError } from './strategyParamsError.js';
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
  subscription: Subscription | undefined;
  status: StrategyStatus;
  error?: unknown;
}

/**
 * Runs several strategies in one process, each with its own params, markets and logger. A
 * strategy that throws or whose stream errors is stopped and logged, its orders handled per its
 * `on_error` policy; the others go on.
 */
export class StrategyHost {
  private readonly running: Running[] = [];

  constructor(private readonly options: StrategyHostOptions) {}

  /** Validates every strategy's params first (nothing starts on a bad config), then starts all. */
  async start(): Promise<void> {
    const prepared = this.options.strategies.map((hosted) => ({ hosted, params: parseParams(hosted) }));
    for (const { hosted, params } of prepared) {
      const context = this.contextFor(hosted, params);
      const entry: Running = { hosted, context, subscription: undefined, status: 'running' };
      this.running.push(entry);
      try {
        await hosted.definition.onStart?.(context);
        entry.subscription = hosted.definition.run(context).subscribe({
          next: (intent) => this.accept(entry, intent),
          error: (error: unknown) => void this.fail(entry, error),
          complete: () => {
            if (entry.status === 'running') entry.status = 'stopped';
            context.log.info({}, 'strategy completed');
          },
        });
        context.log.info({ markets: hosted.markets }, 'strategy started');
      } catch (error) {
        await this.fail(entry, error);
      }
    }
  }

  /** Stops every strategy (unsubscribe is the teardown), then runs their onStop hooks. */
  async stop(): Promise<void> {
    for (const entry of this.running) {
      entry.subscription?.unsubscribe();
      if (entry.status === 'running') {
        entry.status = 'stopped';
        try {
          await entry.hosted.definition.onStop?.(entry.context);
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
    this.options.execution.submit(intent);
  }

  private async fail(entry: Running, error: unknown): Promise<void> {
    if (entry.status === 'failed') return;
    entry.status = 'failed';
    entry.error = error;
    entry.subscription?.unsubscribe();
    entry.context.log.error({ err: error, onError: entry.hosted.onError }, 'strategy failed and was stopped');
    if (entry.hosted.onError === 'cancel') {
      try {
        await this.options.execution.cancelOrdersOf(entry.hosted.name);
      } catch (cancelError) {
        entry.context.log.error({ err: cancelError }, 'could not cancel the failed strategy\'s orders');
      }
    }
  }

  private contextFor(hosted: HostedStrategy, params: unknown): StrategyContext {
    const log = this.options.logger.child({ strategy: hosted.name });
    return Object.freeze({
      name: hosted.name,
      params,
      markets: Object.freeze([...hosted.markets]),
      streams: this.options.streams,
      state: this.options.state,
      outcomes: this.options.execution.outcomes.pipe(filter((o) => o.strategy === hosted.name)),
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
