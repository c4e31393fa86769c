import type { GuardConfig } from '../engineConfig.js';
import type { Intent } from '../intents.js';
import { ALLOW, type GuardState, type GuardVerdict } from './guardState.js';

/**
 * The venue allows one leverage update per second per account (venue-facts "Rate limits"); a
 * second one inside the window waits instead of earning a RateLimited answer. The wiring sets
 * `lastLeverageUpdateMs` to the clock's time when it sends one.
 */
export function checkLeverageRate(state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  if (intent.kind !== 'setLeverage' || state.lastLeverageUpdateMs === undefined) return ALLOW;
  const elapsed = state.nowMs - state.lastLeverageUpdateMs;
  if (elapsed >= config.leverageUpdateIntervalMs) return ALLOW;
  return {
    kind: 'wait',
    reason: `one leverage update per ${config.leverageUpdateIntervalMs} ms per account`,
    retryAfterMs: config.leverageUpdateIntervalMs - Math.max(0, elapsed),
  };
}

