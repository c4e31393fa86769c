import type { KillSwitchState } from '../guards/killSwitch.js';
import type { TradingState } from './tradingConditions.js';

/**
 * The trading state one strategy sees: the account's, or `halted` when its own budget's kill switch
 * is tripped while the account still trades (or is only degraded: a halt needs a person, a degraded
 * engine does not). A stopped or halted account outranks the strategy's own switch.
 */
export function strategyTradingState(
  account: TradingState,
  own: KillSwitchState | undefined,
  ownSinceMs: number,
): TradingState {
  if (own?.tripped !== true || account.mode === 'stopped' || account.mode === 'halted') return account;
  return {
    mode: 'halted',
    reasons: [`strategy kill switch tripped (${own.reason ?? 'manual'})`, ...account.reasons],
    sinceMs: own.trippedAtMs ?? ownSinceMs,
    reconciling: account.reconciling,
  };
}
