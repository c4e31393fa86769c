/**
 * The order's states, one name each. `queued`: the engine has the intent and it waits on admission
 * (the strategy's budget, the account's limits, a rate limit), nothing sent; `submitted`: admitted
 * and in flight (being signed, sent, awaiting the answer); `unknown`: sent without a definite
 * answer; `open` and `partially_filled`: resting on the venue's book; then one end: `filled`,
 * `cancelled` (an expiry too), `refused` (never placed: a check, or the venue) or `failed` (sending
 * gave up). The moves between them are `orderStateMachine.ts`'s table.
 */
export type OrderState =
  'queued' | 'submitted' | 'unknown' | 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'refused' | 'failed';

/** The ends: nothing follows them. */
export type TerminalOrderState = 'filled' | 'cancelled' | 'refused' | 'failed';

/** The ends, listed (the journal selects the orders not yet ended by them). */
export const TERMINAL_STATES: readonly TerminalOrderState[] = ['filled', 'cancelled', 'refused', 'failed'];

const TERMINAL: ReadonlySet<OrderState> = new Set<OrderState>(TERMINAL_STATES);

/** Filled, cancelled, refused or failed: nothing moves it on. */
export function isTerminal(state: OrderState): state is TerminalOrderState {
  return TERMINAL.has(state);
}

/** Not known to the venue yet: waiting for admission, in flight, or sent without a definite answer. */
export function isAwaitingVenue(state: OrderState): boolean {
  return state === 'queued' || state === 'submitted' || state === 'unknown';
}

/** On the venue's book: what the open-orders guard counts. */
export function isResting(state: OrderState): boolean {
  return state === 'open' || state === 'partially_filled';
}
