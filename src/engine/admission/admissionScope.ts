import type { Clock } from '../../core/clock.js';
import type { GuardConfig } from '../config/engineConfig.js';
import type { GuardState, GuardVerdict } from '../guards/guardState.js';
import type { KillSwitchState } from '../guards/killSwitch.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { AccountState } from '../tracking/accountState.js';
import type { InFlightActions, InFlightFilter, InFlightTicket } from './inFlightActions.js';

/**
 * One scope of admission: the account (every guard, the trading conditions) or one strategy's
 * budget. Each scope has its own limits, action bucket and kill switch; all scopes share one
 * count of what is in flight.
 */
export interface AdmissionScope {
  /** "account" or "strategy <name>": named when a check throws. */
  readonly name: string;
  readonly config: GuardConfig;
  readonly clock: Clock;
  /** Longest an intent may wait on a guard before it is refused. */
  readonly maxWaitMs: number;
  readonly inFlight: InFlightActions;
  /** Which in-flight actions this scope counts (a strategy: its own placements). */
  readonly inFlightFilter?: Omit<InFlightFilter, 'excluding'>;
  /** The scope's positions, margin modes and open orders, fresh on every call. */
  accountState(): AccountState;
  /** The scope's rules on one state (default: every account guard). */
  readonly judge?: (state: GuardState, intent: Intent, config: GuardConfig) => GuardVerdict;
  /** Judged before the rules: degraded, reconciling, stopped (the account scope). */
  readonly conditions?: { verdict(intent: Intent): GuardVerdict };
  /** Marks to value positions with (default: the ones given to `setMark`). */
  readonly marks?: (intent: Intent) => ReadonlyMap<number, string>;
  /** Closes the position of a market (a reduce-only market order); margin-mode switches with close_first. */
  closePosition?(intent: Intent): Promise<boolean>;
  /** Called once when the kill switch trips, to cancel what the scope has open. */
  onKillSwitchTripped(reason: string): void;
  /** Called after every change of the kill switch (a trip, a reset): the trading state shows it. */
  onKillSwitchChanged?(state: KillSwitchState): void;
  /** Called as the scope admits an action, with the time its rate limit counted it at. */
  onAdmitted?(admission: ActionAdmission): void;
}

/** An action admitted by a scope: its intent, and the time the scope's action bucket took its token at. */
export interface ActionAdmission {
  readonly intentId: string;
  readonly atMs: number;
}

/** What the gate answers: a refusal, or a ticket (admitted: in flight until settled). */
export type Admission = Refusal | InFlightTicket;
