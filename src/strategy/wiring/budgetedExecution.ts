import { merge, Subject } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Engine } from '../../engine/engine.js';
import type { GuardVerdict } from '../../engine/guards/guardState.js';
import type { KillSwitchState } from '../../engine/guards/killSwitch.js';
import type { IntentOutcome } from '../../engine/intents/intentOutcome.js';
import type { Intent } from '../../engine/intents/intents.js';
import { refusal } from '../../engine/intents/refusal.js';
import type { ExecutionPort } from '../strategyHost.js';
import { budgetGuardConfig, type RiskLimits } from '../../engine/guards/riskLimits.js';

/** What the port needs of the engine (the Engine satisfies it). */
export type BudgetedEngine = Pick<
  Engine,
  'submit' | 'outcomes$' | 'cancelOrdersOf' | 'useBudgets' | 'closeBudgets' | 'strategyKillSwitch'
>;

export interface BudgetedExecutionOptions {
  readonly engine: BudgetedEngine;
  /** Each strategy's effective budget, by instance name; a strategy not listed is not budgeted. */
  readonly budgets: ReadonlyMap<string, RiskLimits>;
  readonly clock: Clock;
  /** A strategy's own conditions, judged before its rules (its freshness budgets: FEED_STALE). */
  readonly conditions?: (strategy: string) => { verdict(intent: Intent): GuardVerdict } | undefined;
}

export interface BudgetedExecution extends ExecutionPort {
  /** A strategy's own kill switch. */
  killSwitch(strategy: string): KillSwitchState | undefined;
  /** Refuses what still waits on a budget and lets nothing more through (call after the strategies stopped). */
  close(): void;
}

/**
 * The execution port strategies submit through: the engine, given each strategy's budget (the
 * budgets are judged inside the engine's one admission, `engine/admission`, after the pre-trade
 * checks). Once closed (the strategies stopped), what a strategy still sends is refused here.
 */
export function budgetedExecution(options: BudgetedExecutionOptions): BudgetedExecution {
  const { engine, clock } = options;
  const limits = new Map([...options.budgets].map(([name, risk]) => [name, budgetGuardConfig(risk)]));
  engine.useBudgets({
    limits,
    ...(options.conditions === undefined ? {} : { conditions: options.conditions }),
  });
  const local = new Subject<IntentOutcome>();
  let closed = false;
  return {
    submit(intent) {
      if (!closed) {
        engine.submit(intent);
        return;
      }
      local.next({
        type: 'refused',
        intentId: intent.intentId,
        strategy: intent.strategy,
        kind: intent.kind,
        marketId: intent.marketId,
        atMs: clock.now(),
        refusal: refusal('engine_stopped', intent.kind, 'the bot is stopping; no new intents'),
      });
    },
    outcomes: merge(engine.outcomes$, local),
    cancelOrdersOf: (strategy) => engine.cancelOrdersOf(strategy),
    killSwitch: (strategy) => engine.strategyKillSwitch(strategy),
    close() {
      if (closed) return;
      closed = true;
      engine.closeBudgets();
    },
  };
}
