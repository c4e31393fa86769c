import type { QuoteIntent, QuoteOrder, QuoteTolerance } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import { gridUnits } from './gridUnits.js';
import type { WantedQuote } from './quotePlan.js';

/** A market's grid as a target's wanted orders are counted on it. */
export interface QuoteGrid {
  readonly tick: string;
  readonly step: string;
}

/** A target's wanted orders, with the intent and the grid they were counted from. */
export interface CountedTarget {
  readonly intent: QuoteIntent;
  readonly grid: QuoteGrid;
  readonly wanted: readonly WantedQuote[];
}

/**
 * The target's orders on the grid, or the first that is not on it (a price off the tick with no
 * rounding). `before`, the strategy's previous target on the market: when this one wants the same
 * (the same orders, tolerance and grid: a strategy that states its whole target at every mark
 * often states it unchanged), its wanted orders are the previous ones, the same object, so what
 * was made of them (a plan, a coverage) can be known again by identity.
 */
export function wantedOf(
  intent: QuoteIntent,
  grid: QuoteGrid,
  before?: CountedTarget,
): readonly WantedQuote[] | Refusal {
  if (before !== undefined && sameWanted(before, intent, grid)) return before.wanted;
  const out: WantedQuote[] = [];
  for (const [index, o] of intent.orders.entries()) {
    const ticks = gridUnits(o.price, grid.tick, o.priceRounding);
    const steps = gridUnits(o.size, grid.step, o.sizeRounding);
    if (ticks === undefined || ticks <= 0n) return offGrid(index, 'price', o.price, grid.tick);
    if (steps === undefined || steps <= 0n) return offGrid(index, 'size', o.size, grid.step);
    const keepPartial = intent.tolerance?.partial === true;
    out.push({ index, side: o.side, ticks, steps, toleranceTicks: toleranceTicks(intent, ticks), keepPartial });
  }
  return out;
}

/** Whether `intent` counts to the same wanted orders as `before` did: every field `wantedOf` reads is equal. */
function sameWanted(before: CountedTarget, intent: QuoteIntent, grid: QuoteGrid): boolean {
  if (before.grid.tick !== grid.tick || before.grid.step !== grid.step) return false;
  if (!sameTolerance(before.intent.tolerance, intent.tolerance)) return false;
  const was = before.intent.orders;
  const now = intent.orders;
  if (was.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) if (!sameOrder(was[i] as QuoteOrder, now[i] as QuoteOrder)) return false;
  return true;
}

function sameOrder(a: QuoteOrder, b: QuoteOrder): boolean {
  return (
    a.side === b.side &&
    a.price === b.price &&
    a.size === b.size &&
    a.priceRounding === b.priceRounding &&
    a.sizeRounding === b.sizeRounding
  );
}

function sameTolerance(a: QuoteTolerance | undefined, b: QuoteTolerance | undefined): boolean {
  return a?.ticks === b?.ticks && a?.bps === b?.bps && a?.partial === b?.partial;
}

function offGrid(index: number, field: 'price' | 'size', value: string, unit: string): Refusal {
  const rounding = field === 'price' ? 'priceRounding' : 'sizeRounding';
  const grid = field === 'price' ? 'tick' : 'step';
  return refusal(
    'quote_target',
    value,
    `orders[${index}].${field} is not a positive ${field} on the ${grid} ${unit}`,
    `name ${rounding} to snap it`,
  );
}

/** The larger of the target's tolerances, in whole ticks (bps of the wanted price, rounded down). */
function toleranceTicks(intent: QuoteIntent, ticks: bigint): bigint {
  const byTicks = BigInt(Math.max(0, Math.floor(intent.tolerance?.ticks ?? 0)));
  const bps = intent.tolerance?.bps ?? 0;
  // ticks × bps / 10 000, in hundredths of a bp so a fractional bps setting counts.
  const byBps = bps > 0 ? (ticks * BigInt(Math.floor(bps * 100))) / 1_000_000n : 0n;
  return byTicks > byBps ? byTicks : byBps;
}
