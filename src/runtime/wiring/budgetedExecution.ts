import { merge, Subject, Subscription, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { AccountState } from '../../engine/tracking/accountState.js';
import { AdmissionGate, type Admission } from '../../engine/admission/admissionGate.js';
import type { InFlightActions } from '../../engine/admission/inFlightActions.js';
import type { GuardVerdict } from '../../engine/guards/guardState.js';
import type { KillSwitchState } from '../../engine/guards/killSwitch.js';
import { lossView, type StrategyBook } from '../../engine/ledger/sessionLedger.js';
import type { IntentOutcome } from '../../engine/intents/intentOutcome.js';
import type { Intent } from '../../engine/intents/intents.js';
import type { TrackedFill, TrackedOrder } from '../../engine/tracking/orderTracker.js';
import { rejection, type Rejection } from '../../engine/intents/rejection.js';
import type { ExecutionPort } from '../../strategy/strategyHost.js';
import type { RiskLimits } from '../config/configSchema.js';
import { budgetGuardConfig, budgetVerdict } from './strategyBudget.js';

/** What the budget layer needs of the engine (the Engine satisfies it). */
export interface BudgetedEngine {
  submit(intent: Intent): void;
  readonly outcomes$: Observable<IntentOutcome>;
  readonly fills$: Observable<TrackedFill>;
  readonly tracker: {
    openOrders(filter: { strategy?: string }): readonly Pick<TrackedOrder, 'intentId' | 'marketId'>[];
  };
  /** The one in-flight count every admission scope shares. */
  readonly inFlight: InFlightActions;
  market(marketId: number): { readonly mark_price: string } | undefined;
  /** The engine's one ledger: each strategy's positions and PnL from its own fills. */
  readonly ledger: { bookOf(strategy: string): StrategyBook };
  cancelOrdersOf(strategy: string): Promise<void>;
}

export interface BudgetedExecutionOptions {
  readonly engine: BudgetedEngine;
  /** Each strategy's effective budget, by instance name; a strategy not listed is not budgeted. */
  readonly budgets: ReadonlyMap<string, RiskLimits>;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'error'>;
  /** Longest an intent waits on its strategy's action rate before it is refused (default 30 s, as the engine). */
  readonly maxWaitMs?: number;
  /** Every emission values the strategies' positions at the current marks again (the oracle feed). */
  readonly revalue?: Observable<unknown>;
  /** A strategy's own conditions, judged before its rules (its freshness budgets: FEED_STALE). */
  readonly conditions?: (strategy: string) => { verdict(intent: Intent): GuardVerdict } | undefined;
}

export interface BudgetedExecution extends ExecutionPort {
  /** A strategy's own kill switch. */
  killSwitch(strategy: string): KillSwitchState | undefined;
  /** Refuses what still waits on a rate budget and lets nothing more through (call after the strategies stopped). */
  close(): void;
}

interface Budgeted {
  readonly name: string;
  readonly book: StrategyBook;
  readonly gate: AdmissionGate;
}

const stopping = (intent: Intent): Rejection =>
  rejection('engine_stopped', intent.kind, 'the bot is stopping; no new intents');

/**
 * The execution port strategies submit through: each strategy's budget is one scope of the
 * engine's admission gate, before the engine's own (account) scope. Refusals come back to the
 * strategy as outcomes like the engine's; an intent over the strategy's action rate waits, in
 * order behind its earlier ones. A check that throws refuses the intent (fails closed). A
 * strategy whose own fills lose `kill_switch.max_loss` has its orders cancelled and only cancels
 * and closes pass for it from then on; the other strategies go on.
 */
export function budgetedExecution(options: BudgetedExecutionOptions): BudgetedExecution {
  const { engine, clock } = options;
  const local = new Subject<IntentOutcome>();
  const subscriptions = new Subscription();
  let closed = false;
  const strategies = new Map<string, Budgeted>();
  for (const [name, budget] of options.budgets) strategies.set(name, budgetScope(name, budget, options));

  const refuse = (intent: Intent, refusal: Rejection): void => {
    local.next({
      type: 'refused',
      intentId: intent.intentId,
      strategy: intent.strategy,
      kind: intent.kind,
      marketId: intent.marketId,
      atMs: clock.now(),
      rejection: refusal,
    });
  };
  const revalue = (s: Budgeted): void => {
    const pnl = lossView(s.book.pnl());
    if (pnl !== undefined) s.gate.watchPnl(pnl);
  };

  subscriptions.add(
    engine.fills$.subscribe((fill) => {
      const s = fill.strategy === undefined ? undefined : strategies.get(fill.strategy);
      // The engine's ledger booked the fill before this subscriber hears of it.
      if (s !== undefined) revalue(s);
    }),
  );
  // The engine releases in-flight intents as it publishes their outcomes; a refusal here never held one.
  subscriptions.add(engine.outcomes$.subscribe((outcome) => engine.inFlight.release(outcome.intentId)));
  if (options.revalue !== undefined) subscriptions.add(options.revalue.subscribe(() => strategies.forEach(revalue)));
  const onAnswer = (intent: Intent) => (answer: Admission) => {
    if ('rule' in answer) refuse(intent, answer);
    else if (closed) {
      answer.settled();
      refuse(intent, stopping(intent));
    } else engine.submit(intent);
  };

  return {
    submit(intent) {
      const s = strategies.get(intent.strategy);
      if (s === undefined) engine.submit(intent);
      else if (closed) refuse(intent, stopping(intent));
      else s.gate.enqueue(intent, onAnswer(intent));
    },
    outcomes: merge(engine.outcomes$, local),
    cancelOrdersOf: (strategy) => engine.cancelOrdersOf(strategy),
    killSwitch: (strategy) => strategies.get(strategy)?.gate.killSwitch,
    close() {
      if (closed) return;
      closed = true;
      subscriptions.unsubscribe();
      for (const s of strategies.values()) s.gate.close(stopping);
    },
  };
}

/** One strategy's scope: its budget's limits on its own ledger, open orders and in-flight placements. */
function budgetScope(name: string, budget: RiskLimits, options: BudgetedExecutionOptions): Budgeted {
  const { engine, clock, log } = options;
  // The strategy's loss is judged on its own fills, which arrive whole: no confirmation delay.
  const config = { ...budgetGuardConfig(budget), killSwitchLossConfirmMs: 0 };
  const book = engine.ledger.bookOf(name);
  const accountState = (): AccountState => {
    const openOrders = new Map<number, number>();
    for (const order of engine.tracker.openOrders({ strategy: name }))
      openOrders.set(order.marketId, (openOrders.get(order.marketId) ?? 0) + 1);
    return { positions: book.positions(), marginModes: new Map(), openOrders };
  };
  const gate = new AdmissionGate({
    name: `strategy ${name}`,
    config,
    clock,
    maxWaitMs: options.maxWaitMs ?? 30_000,
    inFlight: engine.inFlight,
    inFlightFilter: { strategy: name, placementsOnly: true },
    accountState,
    judge: (state, intent, guardConfig) => budgetVerdict(name, state, intent, guardConfig),
    ...conditionsOf(name, options),
    marks: (intent) => {
      const mark = engine.market(intent.marketId)?.mark_price;
      return mark === undefined ? new Map() : new Map([[intent.marketId, mark]]);
    },
    onKillSwitchTripped: (reason) => {
      log.error({ strategy: name, reason }, 'strategy kill switch tripped: cancelling its orders');
      engine
        .cancelOrdersOf(name)
        .catch((error: unknown) =>
          log.error(
            { strategy: name, err: error },
            "could not cancel the strategy's orders after its kill switch tripped",
          ),
        );
    },
  });
  return { name, book, gate };
}

function conditionsOf(
  name: string,
  options: BudgetedExecutionOptions,
): { conditions?: { verdict(intent: Intent): GuardVerdict } } {
  const conditions = options.conditions?.(name);
  return conditions === undefined ? {} : { conditions };
}
