import {
  compareDecimals,
  countUnits,
  fixedToDecimal,
  multiplyDecimals,
  multiplyUnits,
  normalizeDecimal,
} from '../../core/decimal.js';
import type { Rounding } from '../../core/decimal.js';
import type { TpslSide } from '../../venue/schemas/tpslNames.js';
import type { TpslRole, TpslTrigger } from '../orders/tpslOrder.js';

/** A strategy's protection (its `protection:` block): distances from the average entry, in basis points. */
export interface ProtectionSpec {
  readonly stopLossBps?: number | undefined;
  readonly takeProfitBps?: number | undefined;
  readonly trigger: TpslTrigger;
}

/** The position a protection covers: its side, absolute size and average entry. */
export interface ProtectedPosition {
  readonly side: 'buy' | 'sell';
  readonly size: string;
  readonly avgEntryPrice: string;
}

/** One TP/SL the position needs on the venue now. */
export interface WantedLeg {
  readonly role: TpslRole;
  readonly side: TpslSide;
  readonly size: string;
  readonly stopPrice: string;
}

/**
 * The TP/SL orders a position needs: each configured leg closes the whole position (its side the
 * opposite of the position's), its stop price the average entry moved by the leg's basis points
 * and snapped to the market's price grid on the side that never loosens what was asked: a
 * stop-loss toward the entry (it fires no later than asked), a take-profit away from it (it takes
 * no less than asked). A flat position needs none.
 */
export function wantedLegs(
  position: ProtectedPosition | undefined,
  spec: ProtectionSpec,
  stepPrice: string,
): WantedLeg[] {
  if (position === undefined || compareDecimals(position.size, '0') <= 0) return [];
  const long = position.side === 'buy';
  const side: TpslSide = long ? 'SELL' : 'BUY';
  const size = normalizeDecimal(position.size, 'position size');
  const legs: WantedLeg[] = [];
  if (spec.stopLossBps !== undefined) {
    const stopPrice = movedPrice(
      position.avgEntryPrice,
      long ? -spec.stopLossBps : spec.stopLossBps,
      stepPrice,
      long ? 'up' : 'down',
    );
    legs.push({ role: 'stop_loss', side, size, stopPrice });
  }
  if (spec.takeProfitBps !== undefined) {
    const stopPrice = movedPrice(
      position.avgEntryPrice,
      long ? spec.takeProfitBps : -spec.takeProfitBps,
      stepPrice,
      long ? 'up' : 'down',
    );
    legs.push({ role: 'take_profit', side, size, stopPrice });
  }
  return legs;
}

/** entry × (1 + bps / 10 000) on the price grid, at least one tick. */
function movedPrice(entry: string, bps: number, stepPrice: string, rounding: Rounding): string {
  const exact = multiplyDecimals(entry, fixedToDecimal(BigInt(10_000 + bps), 4), 'stop price');
  const ticks = countUnits(exact, stepPrice, 'stop price', rounding);
  return multiplyUnits(ticks > 0n ? ticks : 1n, stepPrice, 'step_price');
}
