/**
 * A count of what changes the engine's view of the account while a REST read of the venue is on
 * its way: placements the venue accepted, and the live feed's positions and balance. A mark taken
 * before the read began tells which of them came after it: the read may be too early to show them,
 * so applying it must not undo them.
 */
export class ReadMarks {
  private count = 0;

  /** A change happened: its mark. */
  next(): number {
    return ++this.count;
  }

  /** Taken before a read: a change with a higher mark came after the read began. */
  now(): number {
    return this.count;
  }
}

/** When each key last changed (its mark), for what a read that began earlier must leave as it is. */
export class MarkedChanges<K> {
  private readonly at = new Map<K, number>();

  constructor(private readonly marks: ReadMarks) {}

  changed(key: K): void {
    this.at.set(key, this.marks.next());
  }

  forget(key: K): void {
    this.at.delete(key);
  }

  /** Whether `key` changed after the mark `readFrom` was taken (undefined: no mark, so nothing is newer). */
  newerThan(key: K, readFrom: number | undefined): boolean {
    return readFrom !== undefined && (this.at.get(key) ?? 0) > readFrom;
  }
}
