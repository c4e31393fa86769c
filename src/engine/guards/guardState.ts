import type { AccountState } from '../tracking/accountState.js';
import type { GuardConfig } from '../config/engineConfig.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';

/** The action rate limit's token bucket (`actionRateLimit.ts`), in integer milli-tokens so refills are exact. */
export interface TokenBucketState {
  readonly milliTokens: number;
  readonly updatedAtMs: number;
}

/** The kill switch (`killSwitch.ts`): tripped by hand or on a loss, until reset by hand. */
export interface KillSwitchState {
  readonly tripped: boolean;
  readonly reason?: string;
  readonly trippedAtMs?: number;
}

/**
 * Everything the risk guards read, as one immutable snapshot the wiring builds before each
 * decision (`nowMs` from the injected clock). Guards never mutate it; the transition functions
 * next to each guard (recordAction, recordLeverageUpdate, tripKillSwitch, ...) return new state.
 */
export interface GuardState extends AccountState {
  /** Actions admitted and not yet settled, per market (`InFlightActions`, as the scope counts them). */
  readonly inFlight: ReadonlyMap<number, number>;
  readonly nowMs: number;
  /** Mark price per market, decimal string. */
  readonly marks: ReadonlyMap<number, string>;
  readonly actionBucket: TokenBucketState;
  /** When the answer to the last leverage update arrived (or it was given up). */
  readonly lastLeverageUpdateMs: number | undefined;
  /** A leverage update is signed or on its way and not yet answered (absent: none). */
  readonly leverageUpdateInFlight?: boolean;
  readonly killSwitch: KillSwitchState;
}

export type GuardVerdict =
  | { readonly kind: 'allow' }
  | { readonly kind: 'refuse'; readonly refusal: Refusal }
  /** Not now: ask again after `retryAfterMs`, or when the named condition clears. */
  | { readonly kind: 'wait'; readonly reason: string; readonly retryAfterMs?: number }
  /** A margin-mode switch with policy close_first: close the position, then try again. */
  | { readonly kind: 'close_first'; readonly marketId: number; readonly reason: string };

export type Guard = (state: GuardState, intent: Intent, config: GuardConfig) => GuardVerdict;

export const ALLOW: GuardVerdict = Object.freeze({ kind: 'allow' });

export function refused(refusal: Refusal): GuardVerdict {
  return { kind: 'refuse', refusal };
}
