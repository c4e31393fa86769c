import type { Side } from '../intents/intents.js';

/** A wanted order on the market's grid: whole ticks and size steps. */
export interface WantedQuote {
  /** Its place in the target's `orders`. */
  readonly index: number;
  readonly side: Side;
  readonly ticks: bigint;
  readonly steps: bigint;
  /** How many ticks away a resting order may be and still stand for it. */
  readonly toleranceTicks: bigint;
  /** Whether an order with less left than `steps` (part of it filled) still stands for it. */
  readonly keepPartial?: boolean;
}

/** An order of the strategy in the market that could stand for a wanted one. */
export interface LiveQuote {
  readonly intentId: string;
  readonly side: Side;
  readonly ticks: bigint;
  /** What is left of it to fill, in steps. */
  readonly remainingSteps: bigint;
}

/** From what rests to what is wanted, in the fewest actions. */
export interface QuotePlan {
  /** Live orders that stand for a wanted one as they are. */
  readonly keep: readonly { readonly live: string; readonly wanted: number }[];
  /** Live orders out of tolerance, each moved to the wanted order of its side nearest in price. */
  readonly replace: readonly { readonly live: string; readonly wanted: number }[];
  /** Wanted orders with no live order of their side left to move. */
  readonly place: readonly number[];
  /** Live orders no wanted one needs. */
  readonly cancel: readonly string[];
}

interface Pair {
  readonly wanted: WantedQuote;
  readonly live: LiveQuote;
  readonly distance: bigint;
}

/**
 * Plans a quote target: first every live order within tolerance of a wanted one of the same side
 * and the same remaining size is kept (the closest pairs first), then what is left of each side is
 * paired by price (each pairing one replacement: a place and a cancel, never more than the two it
 * takes), and the rest is placed or cancelled. Pure: the same inputs give the same plan.
 */
export function planQuotes(wanted: readonly WantedQuote[], live: readonly LiveQuote[]): QuotePlan {
  const usedWanted = new Set<number>();
  const usedLive = new Set<string>();
  const keep = closestFirst(pairs(wanted, live, (w, l) => sizeFits(w, l) && distance(w, l) <= w.toleranceTicks)).filter(
    (p) => take(p, usedWanted, usedLive),
  );
  const restWanted = wanted.filter((w) => !usedWanted.has(w.index));
  const restLive = live.filter((l) => !usedLive.has(l.intentId));
  const replace = closestFirst(pairs(restWanted, restLive, () => true)).filter((p) => take(p, usedWanted, usedLive));
  return {
    keep: keep.map((p) => ({ live: p.live.intentId, wanted: p.wanted.index })),
    replace: replace.map((p) => ({ live: p.live.intentId, wanted: p.wanted.index })),
    place: wanted.filter((w) => !usedWanted.has(w.index)).map((w) => w.index),
    cancel: live.filter((l) => !usedLive.has(l.intentId)).map((l) => l.intentId),
  };
}

function pairs(
  wanted: readonly WantedQuote[],
  live: readonly LiveQuote[],
  fits: (w: WantedQuote, l: LiveQuote) => boolean,
): Pair[] {
  const out: Pair[] = [];
  for (const w of wanted)
    for (const l of live)
      if (w.side === l.side && fits(w, l)) out.push({ wanted: w, live: l, distance: distance(w, l) });
  return out;
}

/** Closest in price first; ties in the target's order, then the live orders' (a stable sort keeps it). */
function closestFirst(list: Pair[]): Pair[] {
  return list.sort((a, b) => (a.distance < b.distance ? -1 : a.distance > b.distance ? 1 : 0));
}

function take(p: Pair, usedWanted: Set<number>, usedLive: Set<string>): boolean {
  if (usedWanted.has(p.wanted.index) || usedLive.has(p.live.intentId)) return false;
  usedWanted.add(p.wanted.index);
  usedLive.add(p.live.intentId);
  return true;
}

/** The same size left, or (keepPartial) some of it, no more than wanted. */
function sizeFits(w: WantedQuote, l: LiveQuote): boolean {
  if (w.steps === l.remainingSteps) return true;
  return w.keepPartial === true && l.remainingSteps > 0n && l.remainingSteps < w.steps;
}

function distance(w: WantedQuote, l: LiveQuote): bigint {
  return w.ticks >= l.ticks ? w.ticks - l.ticks : l.ticks - w.ticks;
}
