/**
 * The orders a quote keeper is taking off the book (a cancel or a replacement on its way): not
 * offered to the next target. Those a replacement moves still stand for their wanted order until
 * they are off the book. `revision` moves with every change, so what was read of the live orders
 * with these sets (`QuoteKeeper`'s plan, the uptime's coverage) is known to be stale.
 */
export class RetiringOrders {
  private readonly retiring = new Set<string>();
  private readonly moving = new Set<string>();
  private changes = 0;

  get revision(): number {
    return this.changes;
  }

  /** The order is on its way out; `moving`: a replacement moves it to a wanted order. */
  retire(intentId: string, moving: boolean): void {
    this.changes++;
    this.retiring.add(intentId);
    if (moving) this.moving.add(intentId);
  }

  /** Nothing retires the order any longer (it ended, or its replacement left it resting). */
  release(intentId: string): void {
    this.changes++;
    this.retiring.delete(intentId);
    this.moving.delete(intentId);
  }

  has(intentId: string): boolean {
    return this.retiring.has(intentId);
  }

  isMoving(intentId: string): boolean {
    return this.moving.has(intentId);
  }
}
