import { countIn, marginModeOf, openPosition } from '../tracking/accountState.js';
import type { Intent } from '../intents/intents.js';
import { refusal } from '../intents/refusal.js';
import { ALLOW, refused, type GuardState, type GuardVerdict } from './guardState.js';

/**
 * Margin-mode rules the venue enforces only after a signature was spent:
 * - switching with an open position fails with OpenPositionExists, so it is refused here, or,
 *   with policy close_first, answered "close the position first";
 * - a switch waits while orders of that market are in flight (they could open a position);
 * - isolated-margin changes need the market in isolated mode.
 */
export function checkMarginMode(state: GuardState, intent: Intent): GuardVerdict {
  if (intent.kind === 'adjustIsolatedMargin') {
    const mode = marginModeOf(state, intent.marketId);
    if (mode === 'isolated') return ALLOW;
    return refused(
      refusal(
        'isolated_margin_mode',
        mode,
        `market ${intent.marketId} is in ${mode} margin mode; isolated margin can only be changed in isolated mode`,
        'switch the market to isolated first',
      ),
    );
  }
  if (intent.kind !== 'setMarginMode') return ALLOW;
  if (marginModeOf(state, intent.marketId) === intent.marginMode) return ALLOW;
  const position = openPosition(state, intent.marketId);
  if (position !== undefined) {
    const reason = `market ${intent.marketId} has an open ${position.side} position of ${position.size}; the venue refuses a margin-mode switch with OpenPositionExists`;
    if (intent.policy === 'close_first') return { kind: 'close_first', marketId: intent.marketId, reason };
    return refused(
      refusal(
        'margin_mode_open_position',
        position.size,
        reason,
        'close the position first, or use policy close_first',
      ),
    );
  }
  const inFlight = countIn(state.inFlight, intent.marketId);
  if (inFlight > 0) {
    return {
      kind: 'wait',
      reason: `${inFlight} action(s) in market ${intent.marketId} are in flight (an order could open a position)`,
    };
  }
  return ALLOW;
}
