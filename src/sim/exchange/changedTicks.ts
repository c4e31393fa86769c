/** Ticks a reader has not seen change, past which it is dropped and reads the whole book again. */
const MAX_CHANGED_TICKS = 4_096;

/**
 * Which price levels of a book changed since each reader last took them: the orderbook channel's
 * publisher reads only those levels, where building and diffing the whole book on every change was
 * most of its work (a replay changes a few levels of a deep book per frame). Readers are followed
 * each on its own, so two publishers of one exchange never take each other's changes; one that
 * stops taking is dropped once it falls `MAX_CHANGED_TICKS` behind, and starts again from the whole book.
 */
export class ChangedTicks {
  /** In an array, not a Map: iterating a Map's entries allocated an iterator and an entry per change. */
  private readers: Follower[] = [];

  /** The level at `priceTicks` on `side` (0 bids, 1 asks) changed: size, orders, or there at all. */
  touch(side: 0 | 1, priceTicks: number): void {
    let dropped = false;
    for (const follower of this.readers) {
      const ticks = follower.sides[side];
      ticks.add(priceTicks);
      if (ticks.size > MAX_CHANGED_TICKS) dropped = follower.dropped = true;
    }
    if (dropped) this.readers = this.readers.filter((follower) => !follower.dropped);
  }

  /** Follows `reader` from now on, forgetting what it had not taken. */
  follow(reader: object): void {
    this.readers = this.readers.filter((follower) => follower.reader !== reader);
    this.readers.push({ reader, sides: [new Set(), new Set()], dropped: false });
  }

  /**
   * The ticks of each side changed since `reader` last took them (in no order), now forgotten;
   * undefined when it is not followed (never was, or fell too far behind): it must read the whole book.
   */
  take(reader: object): readonly [number[], number[]] | undefined {
    const sides = this.readers.find((follower) => follower.reader === reader)?.sides;
    if (sides === undefined) return undefined;
    const taken: readonly [number[], number[]] = [[...sides[0]], [...sides[1]]];
    sides[0].clear();
    sides[1].clear();
    return taken;
  }
}

/** A reader followed, with the ticks of each side it has not taken. */
interface Follower {
  readonly reader: object;
  readonly sides: readonly [Set<number>, Set<number>];
  dropped: boolean;
}
