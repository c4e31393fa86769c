import type { GuardConfig } from '../config/engineConfig.js';
import type { Intent } from '../intents/intents.js';
import { checkActionRate } from './actionRateLimit.js';
import { ALLOW, type Guard, type GuardState, type GuardVerdict } from './guardState.js';
import { checkKillSwitch } from './killSwitch.js';
import { checkLeverageRate } from './leverageRateLimit.js';
import { checkMarginMode } from './marginModeGuard.js';
import { checkMaxOpenOrders } from './maxOpenOrders.js';
import { checkMaxOrderNotional } from './maxOrderNotional.js';
import { checkMaxPosition } from './maxPosition.js';

/**
 * Every guard, most decisive first: refusals before "wait", and the rate limits last so a refused
 * intent never reports a wait. Run on the intent as the pre-trade checks returned it (sizes and
 * prices snapped to the grid).
 */
export const GUARDS: readonly Guard[] = [
  checkKillSwitch,
  checkMarginMode,
  checkMaxOrderNotional,
  checkMaxPosition,
  checkMaxOpenOrders,
  checkLeverageRate,
  checkActionRate,
];

export function evaluateGuards(state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  for (const guard of GUARDS) {
    const verdict = guard(state, intent, config);
    if (verdict.kind !== 'allow') return verdict;
  }
  return ALLOW;
}
