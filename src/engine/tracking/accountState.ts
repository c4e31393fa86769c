import type { MarginMode, Side } from '../intents/intents.js';

/**
 * What the engine knows about the account, per numeric market id, as the order tracker keeps it
 * (from the positions and orders channels). Plain data so checks and guards stay pure functions
 * of it; what is in flight is counted once, by the admission gates (`InFlightActions`).
 */
export interface PositionView {
  readonly side: Side;
  /** Absolute base size as a decimal string; "0" means flat. */
  readonly size: string;
}

export interface AccountState {
  readonly positions: ReadonlyMap<number, PositionView>;
  /** Absent: cross, the venue's default. */
  readonly marginModes: ReadonlyMap<number, MarginMode>;
  /** Resting orders the venue reports open, per market. */
  readonly openOrders: ReadonlyMap<number, number>;
}

export const EMPTY_ACCOUNT_STATE: AccountState = {
  positions: new Map(),
  marginModes: new Map(),
  openOrders: new Map(),
};

/** The open position in a market, or undefined when flat. */
export function openPosition(state: AccountState, marketId: number): PositionView | undefined {
  const position = state.positions.get(marketId);
  if (position === undefined || /^0*(\.0*)?$/.test(position.size)) return undefined;
  return position;
}

export function marginModeOf(state: AccountState, marketId: number): MarginMode {
  return state.marginModes.get(marketId) ?? 'cross';
}

export function countIn(map: ReadonlyMap<number, number>, marketId?: number): number {
  if (marketId !== undefined) return map.get(marketId) ?? 0;
  let total = 0;
  for (const n of map.values()) total += n;
  return total;
}
