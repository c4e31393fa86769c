import type { StopTypeName, TpslSide } from '../../venue/schemas/tpslNames.js';
import type { ProtectionTrigger } from '../intents/intents.js';
import type { TpslState } from './tpslState.js';

/** Which leg of the protection: the stop-loss or the take-profit. */
export type TpslRole = 'stop_loss' | 'take_profit';

/** What the trigger watches: the mark (oracle) or the last traded price (a protection's `trigger`). */
export type TpslTrigger = ProtectionTrigger;

/**
 * One TP/SL order of the engine, as the protection keeper, the journal, status and metrics read
 * it. `id` is the engine's own (journaled before the place request is sent); `venueId` the id the
 * venue's answer (or its list, for an answer lost) gave.
 */
export interface TpslOrder {
  readonly id: string;
  /** The strategy whose position it protects: an execution's fill is attributed to it. */
  readonly strategy: string;
  readonly marketId: number;
  readonly role: TpslRole;
  /** The execution's side: SELL closes a long, BUY a short. */
  readonly side: TpslSide;
  /** Decimal, the position's size when it was placed. */
  readonly size: string;
  /** The trigger price, on the market's price grid. */
  readonly stopPrice: string;
  readonly trigger: TpslTrigger;
  readonly state: TpslState;
  readonly venueId?: string;
  /** What the execution filled (the venue's `filled_size`, or the fills attributed to it). */
  readonly filledSize: string;
  readonly triggeredPrice?: string;
  /** The execution's transaction (`triggered_tx_hash`): its order in order history has it. */
  readonly executionTx?: string;
  /** Why it was refused, cancelled by the venue, or is emulated. */
  readonly reason?: string;
  readonly createdMs: number;
  readonly updatedMs: number;
}

/** The venue's name of a role. */
export function stopTypeOf(role: TpslRole): StopTypeName {
  return role === 'stop_loss' ? 'STOP_LOSS' : 'TAKE_PROFIT';
}

export function roleOf(stopType: StopTypeName): TpslRole {
  return stopType === 'STOP_LOSS' ? 'stop_loss' : 'take_profit';
}
