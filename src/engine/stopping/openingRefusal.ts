import type { TradingConditions } from '../admission/tradingConditions.js';
import type { EngineConfig } from '../config/engineConfig.js';
import type { KillSwitchState } from '../guards/killSwitch.js';
import type { Intent } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';

/** Refused before anything else: the engine stops, or the venue refused our signer. */
export function stoppingRefusal(intent: Intent, stopped: boolean, signerRefused: boolean): Refusal | undefined {
  if (stopped) return refusal('engine_stopped', intent.kind, 'the engine is stopping; no new intents');
  if (!signerRefused) return undefined;
  return refusal(
    'engine_stopped',
    intent.kind,
    'trading stopped: the venue refused the signer (SignerNotAuthorized)',
    'check that permit target is addresses.router, then restart',
  );
}

/**
 * Why a strategy may not open risk now (a quote target then sends only its cancels): the engine
 * stopping, a kill switch (the account's, else the strategy's own), or the trading conditions.
 */
export function openingRefusal(
  intent: Intent,
  now: {
    readonly stopping: Refusal | undefined;
    readonly kill: KillSwitchState | undefined;
    readonly conditions: TradingConditions;
    readonly config: EngineConfig;
  },
): Refusal | undefined {
  if (now.stopping !== undefined) return now.stopping;
  if (now.kill?.tripped === true)
    return refusal(
      'kill_switch',
      intent.kind,
      `the kill switch is tripped (${now.kill.reason ?? 'manual'}); only cancels and position closes pass`,
      'reset the kill switch by hand once the cause is understood',
    );
  const verdict = now.conditions.verdict(intent, now.config.degraded);
  if (verdict.kind === 'refuse') return verdict.refusal;
  if (verdict.kind === 'allow') return undefined;
  return refusal('feed_down', intent.kind, `trading paused: ${verdict.reason}`, 'quote again once it trades');
}
