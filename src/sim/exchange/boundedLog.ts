import { InvalidValueError } from '../../core/invalidValueError.js';

/**
 * An append-only list that keeps only its newest `capacity` items, so a history read by a
 * long-running simulator stays bounded. A push is O(1) amortised: evicted slots are released at
 * once (and reported to `onEvict`) and the array is compacted now and then, never shifted.
 */
export class BoundedLog<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (item: T) => void = () => {},
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new InvalidValueError('capacity', capacity, 'an integer >= 1');
  }

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
    while (this.items.length - this.head > this.capacity) {
      const old = this.items[this.head];
      this.items[this.head] = undefined;
      this.head += 1;
      if (old !== undefined) this.onEvict(old);
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Newest first. */
  *newestFirst(): IterableIterator<T> {
    for (let i = this.items.length - 1; i >= this.head; i--) {
      const item = this.items[i];
      if (item !== undefined) yield item;
    }
  }

  /** Oldest first. */
  *oldestFirst(): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i];
      if (item !== undefined) yield item;
    }
  }
}
