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
  private readonly readers = new Map<object, readonly [Set<number>, Set<number>]>();

  /** The level at `priceTicks` on `side` (0 bids, 1 asks) changed: size, orders, or there at all. */
  touch(side: 0 | 1, priceTicks: number): void {
    if (this.readers.size === 0) return;
    for (const [reader, sides] of this.readers) {
      const ticks = sides[side];
      ticks.add(priceTicks);
      if (ticks.size > MAX_CHANGED_TICKS) this.readers.delete(reader);
    }
  }

  /** Follows `reader` from now on, forgetting what it had not taken. */
  follow(reader: object): void {
    this.readers.set(reader, [new Set(), new Set()]);
  }

  /**
   * The ticks of each side changed since `reader` last took them (in no order), now forgotten;
   * undefined when it is not followed (never was, or fell too far behind): it must read the whole book.
   */
  take(reader: object): readonly [number[], number[]] | undefined {
    const sides = this.readers.get(reader);
    if (sides === undefined) return undefined;
    const taken: readonly [number[], number[]] = [[...sides[0]], [...sides[1]]];
    sides[0].clear();
    sides[1].clear();
    return taken;
  }
}
