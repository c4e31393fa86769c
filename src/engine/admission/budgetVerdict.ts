import type { GuardConfig } from '../config/engineConfig.js';
import { checkActionRate } from '../guards/actionRateLimit.js';
import { ALLOW, refused, type Guard, type GuardState, type GuardVerdict } from '../guards/guardState.js';
import { checkKillSwitch } from '../guards/killSwitch.js';
import { checkMaxOpenOrders } from '../guards/maxOpenOrders.js';
import { checkMaxOrderNotional } from '../guards/maxOrderNotional.js';
import { checkMaxPosition } from '../guards/maxPosition.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal, RefusalRule } from '../intents/refusal.js';

/**
 * Each strategy's own risk budget (its `risk:` block over the global limits), judged by the
 * engine's own pure guards on a state that holds only that strategy's share: its open and
 * in-flight orders, the net position and PnL of its own fills, its action bucket and its kill
 * switch. Checked after the pre-trade checks (on the intent as it will be sent) and before the
 * account-wide guards, which still apply to everything. Most decisive first, the rate limit last
 * so a refused intent never reports a wait.
 */
export const BUDGET_GUARDS: readonly Guard[] = [
  checkKillSwitch,
  checkMaxOrderNotional,
  checkMaxPosition,
  checkMaxOpenOrders,
  checkActionRate,
];

/** The config field of a strategy's `risk:` block behind each rule the budget can refuse with. */
const BUDGET_FIELDS: Partial<Record<RefusalRule, string>> = {
  kill_switch: 'kill_switch.max_loss',
  max_order_notional: 'max_order_notional',
  max_position: 'max_position_per_market',
  max_open_orders: 'max_open_orders',
};

/** allow, refuse (naming the strategy and its budget field) or wait (its action rate). */
export function budgetVerdict(strategy: string, state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  for (const guard of BUDGET_GUARDS) {
    const verdict = guard(state, intent, config);
    if (verdict.kind === 'refuse') return refused(budgetRefusal(strategy, verdict.refusal));
    if (verdict.kind === 'wait') return { ...verdict, reason: `strategy ${strategy}'s budget: ${verdict.reason}` };
    if (verdict.kind !== 'allow') return verdict;
  }
  return ALLOW;
}

function budgetRefusal(strategy: string, engine: Refusal): Refusal {
  const field = BUDGET_FIELDS[engine.rule];
  const hint =
    engine.rule === 'kill_switch'
      ? `the loss counts this strategy's own fills in this run; restart once the cause is understood, or raise risk.kill_switch.max_loss of strategy ${strategy}`
      : `stay within it, or raise risk.${field ?? engine.rule} of strategy ${strategy} in the config`;
  return {
    rule: engine.rule,
    value: engine.value,
    reason: `strategy ${strategy}'s budget: ${engine.reason}`,
    hints: [hint],
  };
}
