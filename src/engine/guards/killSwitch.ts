import { addDecimals, compareDecimals } from '../../core/decimal.js';
import type { GuardConfig } from '../config/engineConfig.js';
import { isRiskReducing, type Intent } from '../intents/intents.js';
import { refusal } from '../intents/refusal.js';
import { ALLOW, refused, type GuardState, type GuardVerdict, type KillSwitchState } from './guardState.js';

export type { KillSwitchState } from './guardState.js';

/**
 * The kill switch: tripped by hand or when the loss reaches the configured limit; while tripped it
 * refuses everything except cancels and position closes, until reset by hand. Cancelling every
 * order on the trip is the wiring's job: the transitions report `justTripped` so it happens once.
 */
export interface KillSwitchTransition {
  readonly state: KillSwitchState;
  /** True only on the transition from armed to tripped. */
  readonly justTripped: boolean;
}

export const ARMED_KILL_SWITCH: KillSwitchState = Object.freeze({ tripped: false });

export function tripKillSwitch(state: KillSwitchState, reason: string, nowMs: number): KillSwitchTransition {
  if (state.tripped) return { state, justTripped: false };
  return { state: { tripped: true, reason, trippedAtMs: nowMs }, justTripped: true };
}

export function resetKillSwitch(): KillSwitchState {
  return ARMED_KILL_SWITCH;
}

export interface PnlSnapshot {
  /** USDC decimal strings; losses are negative. */
  readonly realized: string;
  readonly unrealized: string;
}

/** Trips when realized + unrealized PnL is at or below -maxLoss. */
export function watchLoss(
  state: KillSwitchState,
  pnl: PnlSnapshot,
  config: GuardConfig,
  nowMs: number,
): KillSwitchTransition {
  const total = addDecimals(pnl.realized, pnl.unrealized, 'PnL');
  if (compareDecimals(total, `-${config.killSwitchMaxLoss}`) > 0) return { state, justTripped: false };
  return tripKillSwitch(state, `loss limit reached: PnL ${total} <= -${config.killSwitchMaxLoss}`, nowMs);
}

export function checkKillSwitch(state: GuardState, intent: Intent): GuardVerdict {
  if (!state.killSwitch.tripped || isRiskReducing(intent)) return ALLOW;
  return refused(
    refusal(
      'kill_switch',
      intent.kind,
      `the kill switch is tripped (${state.killSwitch.reason ?? 'manual'}); only cancels and position closes pass`,
      'reset the kill switch by hand once the cause is understood',
    ),
  );
}
