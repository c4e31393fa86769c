import { merge, Subject, Subscription, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { GuardConfig } from '../../engine/engineConfig.js';
import { fullBucket, recordAction, type TokenBucketState } from '../../engine/guards/actionRateLimit.js';
import type { GuardState } from '../../engine/guards/guardState.js';
import { ARMED_KILL_SWITCH, watchLoss, type KillSwitchState } from '../../engine/guards/killSwitch.js';
import type { IntentOutcome } from '../../engine/intentOutcome.js';
import { isPlaceIntent, type Intent } from '../../engine/intents.js';
import type { TrackedFill, TrackedOrder } from '../../engine/orderTracker.js';
import { rejection, type Rejection } from '../../engine/rejection.js';
import type { ExecutionPort } from '../../strategy/strategyHost.js';
import type { RiskLimits } from '../config/configSchema.js';
import { budgetGuardConfig, budgetVerdict } from './strategyBudget.js';
import { StrategyLedger } from './strategyLedger.js';

/** What the budget layer needs of the engine (the Engine satisfies it). */
export interface BudgetedEngine {
  submit(intent: Intent): void;
  readonly outcomes$: Observable<IntentOutcome>;
  readonly fills$: Observable<TrackedFill>;
  readonly tracker: { openOrders(filter: { strategy?: string }): readonly Pick<TrackedOrder, 'intentId' | 'marketId'>[] };
  market(marketId: number): { readonly mark_price: string } | undefined;
  cancelOrdersOf(strategy: string): Promise<void>;
}

export interface BudgetLogger {
  error(obj: object, msg?: string): void;
}

export interface BudgetedExecutionOptions {
  readonly engine: BudgetedEngine;
  /** Each strategy's effective budget, by instance name; a strategy not listed is not budgeted. */
  readonly budgets: ReadonlyMap<string, RiskLimits>;
  readonly clock: Clock;
  readonly log: BudgetLogger;
  /** Longest an intent waits on its strategy's action rate before it is refused (default 30 s, as the engine). */
  readonly maxWaitMs?: number;
  /** Every emission values the strategies' positions at the current marks again (the oracle feed). */
  readonly revalue?: Observable<unknown>;
}

export interface BudgetedExecution extends ExecutionPort {
  /** A strategy's own kill switch. */
  killSwitch(strategy: string): KillSwitchState | undefined;
  /** Refuses what still waits on a rate budget and lets nothing more through (call after the strategies stopped). */
  close(): void;
}

interface Budgeted {
  readonly name: string;
  readonly config: GuardConfig;
  readonly ledger: StrategyLedger;
  /** Placements handed to the engine whose outcome has not arrived yet: intent id → market. */
  readonly inFlight: Map<string, number>;
  /** Intents waiting on the action rate, in the order the strategy emitted them. */
  readonly queue: { readonly intent: Intent; readonly sinceMs: number }[];
  bucket: TokenBucketState;
  kill: KillSwitchState;
  pumping: boolean;
}

/**
 * The execution port strategies submit through: every strategy's budget (`budgetVerdict`) before
 * the engine. Refusals come back to the strategy as outcomes like the engine's; an intent over the
 * strategy's action rate waits, in order behind its earlier ones, as the engine's own rate guard
 * makes intents wait. A strategy whose own fills lose `kill_switch.max_loss` has its orders
 * cancelled and only cancels and closes pass for it from then on; the other strategies go on.
 */
export function budgetedExecution(options: BudgetedExecutionOptions): BudgetedExecution {
  const { engine, clock, log } = options;
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const local = new Subject<IntentOutcome>();
  const lifetime = new AbortController();
  const subscriptions = new Subscription();
  let closed = false;
  const strategies = new Map<string, Budgeted>();
  for (const [name, budget] of options.budgets) {
    const config = budgetGuardConfig(budget);
    strategies.set(name, { name, config, ledger: new StrategyLedger(), inFlight: new Map(), queue: [], bucket: fullBucket(config, clock.now()), kill: ARMED_KILL_SWITCH, pumping: false });
  }

  const refuse = (intent: Intent, refusal: Rejection): void => {
    local.next({ type: 'refused', intentId: intent.intentId, strategy: intent.strategy, kind: intent.kind, marketId: intent.marketId, atMs: clock.now(), rejection: refusal });
  };

  const checkLoss = (s: Budgeted): void => {
    const pnl = s.ledger.pnl((marketId) => engine.market(marketId)?.mark_price);
    if (pnl === undefined) return;
    const transition = watchLoss(s.kill, pnl, s.config, clock.now());
    s.kill = transition.state;
    if (!transition.justTripped) return;
    log.error({ strategy: s.name, reason: transition.state.reason }, 'strategy kill switch tripped: cancelling its orders');
    engine.cancelOrdersOf(s.name).catch((error: unknown) => log.error({ strategy: s.name, err: error }, "could not cancel the strategy's orders after its kill switch tripped"));
  };

  const guardState = (s: Budgeted, intent: Intent, nowMs: number): GuardState => {
    const openOrders = new Map<number, number>();
    const tracked = new Set<string>();
    for (const order of engine.tracker.openOrders({ strategy: s.name })) {
      tracked.add(order.intentId);
      openOrders.set(order.marketId, (openOrders.get(order.marketId) ?? 0) + 1);
    }
    const inFlight = new Map<number, number>();
    for (const [intentId, marketId] of s.inFlight) if (!tracked.has(intentId)) inFlight.set(marketId, (inFlight.get(marketId) ?? 0) + 1);
    const mark = engine.market(intent.marketId)?.mark_price;
    return {
      positions: s.ledger.positions(),
      marginModes: new Map(),
      openOrders,
      inFlight,
      nowMs,
      marks: mark === undefined ? new Map() : new Map([[intent.marketId, mark]]),
      actionBucket: s.bucket,
      lastLeverageUpdateMs: undefined,
      killSwitch: s.kill,
    };
  };

  const pass = (s: Budgeted, intent: Intent): void => {
    if (isPlaceIntent(intent)) s.inFlight.set(intent.intentId, intent.marketId);
    engine.submit(intent);
  };

  /** Acts on the intent and returns undefined, or returns how long to wait before asking again. */
  const decide = (s: Budgeted, entry: Budgeted['queue'][number]): number | undefined => {
    const now = clock.now();
    let verdict;
    try {
      checkLoss(s);
      verdict = budgetVerdict(s.name, guardState(s, entry.intent, now), entry.intent, s.config);
    } catch {
      // A malformed intent (a size that is not a decimal, ...): the engine's pre-trade checks refuse it with their rule.
      pass(s, entry.intent);
      return undefined;
    }
    switch (verdict.kind) {
      case 'refuse':
        refuse(entry.intent, verdict.rejection);
        return undefined;
      case 'wait':
        if (now - entry.sinceMs < maxWaitMs) return Math.max(1, verdict.retryAfterMs ?? 50);
        refuse(entry.intent, rejection('guard_wait_timeout', entry.intent.kind, `waited ${now - entry.sinceMs} ms: ${verdict.reason}`, 'slow the strategy down or raise its risk.max_actions_per_second'));
        return undefined;
      default:
        s.bucket = recordAction(s.bucket, now, s.config);
        pass(s, entry.intent);
        return undefined;
    }
  };

  /** Works through a strategy's queue; synchronous up to the first wait, so an allowed intent goes straight on. */
  const pump = async (s: Budgeted): Promise<void> => {
    s.pumping = true;
    try {
      for (let head = s.queue[0]; head !== undefined && !closed; head = s.queue[0]) {
        const retryMs = decide(s, head);
        if (retryMs === undefined) s.queue.shift();
        else await clock.sleep(retryMs, lifetime.signal);
      }
    } catch {
      // Aborted by close(), which refuses what is left.
    } finally {
      s.pumping = false;
    }
  };

  subscriptions.add(
    engine.fills$.subscribe((fill) => {
      const s = fill.strategy === undefined ? undefined : strategies.get(fill.strategy);
      if (s === undefined) return;
      s.ledger.onFill(fill);
      checkLoss(s);
    }),
  );
  subscriptions.add(
    engine.outcomes$.subscribe((outcome) => {
      strategies.get(outcome.strategy)?.inFlight.delete(outcome.intentId);
    }),
  );
  if (options.revalue !== undefined) subscriptions.add(options.revalue.subscribe(() => strategies.forEach(checkLoss)));

  return {
    submit(intent) {
      const s = strategies.get(intent.strategy);
      if (s === undefined) {
        engine.submit(intent);
        return;
      }
      if (closed) {
        refuse(intent, rejection('engine_stopped', intent.kind, 'the bot is stopping; no new intents'));
        return;
      }
      s.queue.push({ intent, sinceMs: clock.now() });
      if (!s.pumping) void pump(s);
    },
    outcomes: merge(engine.outcomes$, local),
    cancelOrdersOf: (strategy) => engine.cancelOrdersOf(strategy),
    killSwitch: (strategy) => strategies.get(strategy)?.kill,
    close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      subscriptions.unsubscribe();
      for (const s of strategies.values()) {
        for (const { intent } of s.queue.splice(0)) refuse(intent, rejection('engine_stopped', intent.kind, 'the bot is stopping; no new intents'));
      }
    },
  };
}
