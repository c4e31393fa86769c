/**
 * The states of a TP/SL order of the engine (a venue-kept take-profit or stop-loss, its own kind
 * beside the ordinary orders of `orders/orderState.ts`). `placing`: decided and journaled, the
 * place request on its way; `accepted`: the venue holds it and watches its trigger; `triggered`:
 * it fired and the venue is executing it; `cancelling`: a cancel was sent; `emulated`: the venue
 * refused TP/SL orders, so the engine watches the trigger itself while it runs (it does not
 * outlive the process); then one end: `executed` (the venue's SUCCESS, or an emulated stop that
 * fired), `cancelled`, `refused` (never held by the venue). The moves are `tpslStateMachine.ts`'s table.
 */
export type TpslState =
  'placing' | 'accepted' | 'triggered' | 'cancelling' | 'emulated' | 'executed' | 'cancelled' | 'refused';

export type TerminalTpslState = 'executed' | 'cancelled' | 'refused';

const TERMINAL: ReadonlySet<TpslState> = new Set<TerminalTpslState>(['executed', 'cancelled', 'refused']);

export function isTerminalTpsl(state: TpslState): state is TerminalTpslState {
  return TERMINAL.has(state);
}

/**
 * Protecting the position now: held by the venue (accepted or triggered: venue-tpsl.md's
 * "active"), or being placed. An emulated stop protects only while this process runs, so the
 * watchdog does not count it (see `isVenueProtecting`).
 */
export function isLiveTpsl(state: TpslState): boolean {
  return state === 'placing' || state === 'accepted' || state === 'triggered' || state === 'emulated';
}

/** Held by the venue, so it outlives the bot: ACCEPTED or TRIGGERED there. */
export function isVenueProtecting(state: TpslState): boolean {
  return state === 'accepted' || state === 'triggered';
}
