import type { TradingState } from '../../../engine/admission/tradingConditions.js';
import type { Readiness } from './botStatus.js';

export interface ReadinessInput {
  readonly phase: 'running' | 'stopping';
  readonly connection: { readonly status: string; readonly reason?: string };
  readonly trading: TradingState;
  readonly killSwitch: { readonly tripped: boolean; readonly reason?: string };
  /** Per strategy, what a person may want to know but a load balancer need not act on. */
  readonly warnings: readonly string[];
}

/**
 * Ready = trading: the venue connection authenticated, every reconciliation done, not degraded,
 * the account's kill switch armed, and the bot not stopping. Each failed condition is one reason,
 * so a 503 says why. A strategy that is reduce-only on a late stream is a warning only: the bot
 * as a whole still trades.
 */
export function readinessOf(input: ReadinessInput): Readiness {
  const reasons: string[] = [];
  if (input.phase === 'stopping') reasons.push('the bot is stopping');
  if (input.connection.status !== 'authenticated')
    reasons.push(
      `venue connection ${input.connection.status}${input.connection.reason === undefined ? '' : ` (${input.connection.reason})`}`,
    );
  if (input.trading.mode === 'stopped') reasons.push(`trading stopped: ${input.trading.reasons.join('; ')}`);
  if (input.trading.mode === 'degraded')
    for (const reason of input.trading.reasons) reasons.push(`degraded: ${reason}`);
  if (input.trading.reconciling) reasons.push('a reconciliation with the venue is running');
  if (input.killSwitch.tripped) reasons.push(`kill switch tripped: ${input.killSwitch.reason ?? 'no reason given'}`);
  return { ready: reasons.length === 0, reasons, warnings: [...input.warnings] };
}

/** Before the engine exists: alive, not ready. */
export function startingReadiness(phase: string): Readiness {
  return { ready: false, reasons: [`starting: ${phase}`], warnings: [] };
}
