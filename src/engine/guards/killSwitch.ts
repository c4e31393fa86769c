import { parseDecimal, pow10, WEI_DECIMALS, weiToDecimal } from '../../core/decimal.js';
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

/**
 * A PnL as the kill switch judges it, in USDC wei (18 decimals, the ledger's scale): kept as
 * bigints, so judging it at every mark parses and formats nothing. Losses are negative.
 */
export interface PnlSnapshot {
  /** Realised PnL net of fees (a fee is a realised cost). */
  readonly realisedWei: bigint;
  /** The open positions' PnL at the marks. */
  readonly unrealisedWei: bigint;
}

/** Trips when realised + unrealised PnL is at or below -maxLoss. */
export function watchLoss(
  state: KillSwitchState,
  pnl: PnlSnapshot,
  config: GuardConfig,
  nowMs: number,
): KillSwitchTransition {
  const total = pnl.realisedWei + pnl.unrealisedWei;
  if (!reachesLoss(total, config.killSwitchMaxLoss)) return { state, justTripped: false };
  const reason = `loss limit reached: PnL ${weiToDecimal(total)} <= -${config.killSwitchMaxLoss}`;
  return tripKillSwitch(state, reason, nowMs);
}

/** Whether `totalWei` is at or below -maxLoss, exactly: a limit finer than a wei is compared at its own scale. */
function reachesLoss(totalWei: bigint, maxLoss: string): boolean {
  const limit = parseDecimal(maxLoss, 'guards.killSwitchMaxLoss');
  if (limit.scale <= WEI_DECIMALS) return totalWei <= -limit.units * pow10(WEI_DECIMALS - limit.scale);
  return totalWei * pow10(limit.scale - WEI_DECIMALS) <= -limit.units;
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
