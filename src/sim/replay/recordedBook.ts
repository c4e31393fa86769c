import { BoundedMap } from '../../core/boundedMap.js';

/** One level of a recorded book on the market's grid; 0 steps: the level is gone. */
export interface LevelChange {
  readonly side: 0 | 1;
  readonly priceTicks: number;
  readonly steps: number;
}

/** A recorded level as the wire decoder gives it: its price as canonical integer wei text, its exact wei quantity. */
export interface RecordedLevel {
  readonly priceWeiText: string;
  readonly quantityWei: bigint;
}

/**
 * One side: each recorded price's quantity (keyed by its wei text: a Map hashes a string much
 * faster than a bigint), what they add up to on each tick of the grid, and the tick of each
 * recorded price (a book repeats a few hundred prices; remembered within a bound).
 */
interface RecordedSide {
  readonly quantities: Map<string, bigint>;
  readonly ticks: Map<number, bigint>;
  readonly tickOf: BoundedMap<string, number>;
}

/**
 * A market's book as the recording shows it, on the market's grid: what the venue displayed at
 * each tick, in whole steps. A recorded price off the grid is moved to the tick that shows it no
 * better (bids down, asks up) and a quantity is rounded down to whole steps, so the replay never
 * offers more, or better, liquidity than was recorded.
 */
export class RecordedBook {
  private readonly sides: readonly [RecordedSide, RecordedSide] = [emptySide(), emptySide()];

  constructor(
    private readonly tickWei: bigint,
    private readonly stepWei: bigint,
  ) {}

  /**
   * A snapshot replaces the whole book: every tick it shows, and every tick now gone (0 steps).
   * Each is a fresh level, so what a taker of ours consumed from it is back.
   */
  replace(bids: readonly RecordedLevel[], asks: readonly RecordedLevel[]): LevelChange[] {
    const before = [[...this.sides[0].ticks.keys()], [...this.sides[1].ticks.keys()]] as const;
    for (const side of this.sides) {
      side.quantities.clear();
      side.ticks.clear();
    }
    this.apply(0, bids);
    this.apply(1, asks);
    const changes: LevelChange[] = [];
    for (const s of [0, 1] as const) {
      const now = this.sides[s].ticks;
      for (const ticks of before[s]) if (!now.has(ticks)) changes.push({ side: s, priceTicks: ticks, steps: 0 });
      for (const ticks of now.keys()) changes.push({ side: s, priceTicks: ticks, steps: this.displayed(s, ticks) });
    }
    return changes;
  }

  /** An update carries absolute levels (quantity 0 deletes): each tick it touched, as it now stands. */
  update(bids: readonly RecordedLevel[], asks: readonly RecordedLevel[]): LevelChange[] {
    const changes: LevelChange[] = [];
    this.changesOf(0, this.apply(0, bids), changes);
    this.changesOf(1, this.apply(1, asks), changes);
    return changes;
  }

  /** Whole steps displayed at `priceTicks` on `side` (0 bids, 1 asks). */
  displayed(side: 0 | 1, priceTicks: number): number {
    return this.stepsOf(this.sides[side].ticks.get(priceTicks) ?? 0n);
  }

  /** Each tick touched, in the order first touched, as it now stands. */
  private changesOf(side: 0 | 1, touched: readonly number[], changes: LevelChange[]): void {
    for (let i = 0; i < touched.length; i++) {
      const tick = touched[i]!;
      if (touched.indexOf(tick) === i) changes.push({ side, priceTicks: tick, steps: this.displayed(side, tick) });
    }
  }

  /** Applies the levels; the tick of each, in order (a tick once per level that landed on it). */
  private apply(side: 0 | 1, levels: readonly RecordedLevel[]): number[] {
    const { quantities, ticks, tickOf } = this.sides[side];
    const touched: number[] = new Array<number>(levels.length);
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i]!;
      const price = level.priceWeiText;
      let tick = tickOf.get(price);
      if (tick === undefined) {
        tick = this.ticksOf(side, BigInt(price));
        tickOf.set(price, tick);
      }
      touched[i] = tick;
      const quantity = level.quantityWei;
      const total = (ticks.get(tick) ?? 0n) - (quantities.get(price) ?? 0n) + quantity;
      if (quantity > 0n) quantities.set(price, quantity);
      else quantities.delete(price);
      if (total > 0n) ticks.set(tick, total);
      else ticks.delete(tick);
    }
    return touched;
  }

  /** Bids round down and asks up: an off-grid price is shown no better than recorded. */
  private ticksOf(side: 0 | 1, priceWei: bigint): number {
    const whole = priceWei / this.tickWei;
    const up = side === 1 && priceWei % this.tickWei !== 0n;
    return Number(up ? whole + 1n : whole);
  }

  private stepsOf(wei: bigint): number {
    return Number(wei / this.stepWei);
  }
}

/** Distinct recorded prices a side remembers the tick of before it starts again. */
const MAX_REMEMBERED_PRICES = 10_000;

function emptySide(): RecordedSide {
  return { quantities: new Map(), ticks: new Map(), tickOf: new BoundedMap(MAX_REMEMBERED_PRICES) };
}
