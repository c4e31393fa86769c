/**
 * A Map that forgets everything once it holds `limit` entries and a new key arrives: for
 * remembering answers whose keys recur (addresses, prices, level texts), bounded however long the
 * process runs. Clearing all at once costs a few recomputations after it; an LRU would pay its
 * bookkeeping on every hit, and the hits are the hot path.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new RangeError(`a BoundedMap needs a limit of at least 1 entry, got ${limit}`);
  }

  /**
   * The value remembered for `key`, else `compute(key)`, remembered. `compute` takes the key so a
   * hot caller passes a module function and makes no closure per call.
   */
  remember(key: K, compute: (key: K) => V): V {
    const known = this.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    this.set(key, value);
    return value;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
