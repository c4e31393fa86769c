import { merge, Subject } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { compareDecimals, multiplyDecimals } from '../../core/decimal.js';
import type { Engine } from '../../engine/engine.js';
import type { IntentOutcome } from '../../engine/intentOutcome.js';
import { isPlaceIntent, type Intent } from '../../engine/intents.js';
import { rejection, type Rejection } from '../../engine/rejection.js';
import type { ExecutionPort } from '../../strategy/strategyHost.js';
import type { RiskLimits } from '../config/configSchema.js';

/**
 * Each strategy's own risk budget (its `risk:` block over the global limits), checked before the
 * engine's account-wide guards: its open orders and its order notional. Refusals are reported as
 * outcomes to that strategy like any other.
 */
export function budgetRejection(intent: Intent, budget: RiskLimits, openOrdersOfStrategy: number, mark: string | undefined): Rejection | undefined {
  if (!isPlaceIntent(intent)) return undefined;
  if (openOrdersOfStrategy >= budget.max_open_orders) {
    return rejection('max_open_orders', openOrdersOfStrategy, `strategy ${intent.strategy} already has ${openOrdersOfStrategy} open orders (its budget: ${budget.max_open_orders})`);
  }
  const price = intent.kind === 'placeLimit' ? intent.price : mark;
  if (price !== undefined) {
    const notional = multiplyDecimals(intent.size, price);
    if (compareDecimals(notional, budget.max_order_notional) > 0) {
      return rejection('max_order_notional', notional, `order notional ${notional} is above strategy ${intent.strategy}'s budget of ${budget.max_order_notional} USDC`);
    }
  }
  return undefined;
}

export function budgetedExecution(engine: Engine, budgets: ReadonlyMap<string, RiskLimits>, clock: Clock): ExecutionPort {
  const local = new Subject<IntentOutcome>();
  return {
    submit(intent) {
      const budget = budgets.get(intent.strategy);
      const refused =
        budget === undefined
          ? undefined
          : budgetRejection(intent, budget, engine.tracker.openOrders({ strategy: intent.strategy }).length, engine.market(intent.marketId)?.mark_price);
      if (refused === undefined) {
        engine.submit(intent);
        return;
      }
      local.next({ type: 'refused', intentId: intent.intentId, strategy: intent.strategy, kind: intent.kind, marketId: intent.marketId, atMs: clock.now(), rejection: refused });
    },
    outcomes: merge(engine.outcomes$, local),
    cancelOrdersOf: (strategy) => engine.cancelOrdersOf(strategy),
  };
}
