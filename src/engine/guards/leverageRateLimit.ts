import type { GuardConfig } from '../config/engineConfig.js';
import type { Intent } from '../intents/intents.js';
import { ALLOW, type GuardState, type GuardVerdict } from './guardState.js';

/**
 * The venue allows one leverage update per second per account (venue-facts "Rate limits") and
 * measures the time between arrivals. Sends do not arrive in the order or at the spacing they
 * were admitted (signing, nonce waits, the network), so updates go one at a time and the next
 * one waits `leverageUpdateIntervalMs` from the previous one's answer: the answer comes after the
 * venue saw the request, so the next arrival is at least the interval later. The wiring sets
 * `leverageUpdateInFlight` while one is unanswered and `lastLeverageUpdateMs` when it settles.
 */
export function checkLeverageRate(state: GuardState, intent: Intent, config: GuardConfig): GuardVerdict {
  if (intent.kind !== 'setLeverage') return ALLOW;
  if (state.leverageUpdateInFlight === true) {
    return {
      kind: 'wait',
      reason: `a leverage update is in flight; they go one at a time, ${config.leverageUpdateIntervalMs} ms after the previous answer`,
    };
  }
  if (state.lastLeverageUpdateMs === undefined) return ALLOW;
  const elapsed = state.nowMs - state.lastLeverageUpdateMs;
  if (elapsed >= config.leverageUpdateIntervalMs) return ALLOW;
  return {
    kind: 'wait',
    reason: `one leverage update per ${config.leverageUpdateIntervalMs} ms per account`,
    retryAfterMs: config.leverageUpdateIntervalMs - Math.max(0, elapsed),
  };
}
