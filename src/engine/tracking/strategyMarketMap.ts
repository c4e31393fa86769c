/** One value of a `StrategyMarketMap`, with the pair it is kept under. */
export interface StrategyMarketEntry<V> {
  readonly strategy: string;
  readonly marketId: number;
  readonly value: V;
}

interface Slot<V> {
  readonly strategy: string;
  readonly marketId: number;
  value: V;
}

/**
 * Values per strategy and market, looked up by the pair without building a key: a
 * `${strategy}\u0000${marketId}` string made and hashed for every lookup cost ten times a lookup
 * in two maps, and the order counts, quote targets and uptime books are read several times on
 * every order event. Iterates in insertion order, as one Map keyed by the pair would (a value set
 * again keeps its place; one deleted and set again goes last).
 */
export class StrategyMarketMap<V> {
  private readonly byStrategy = new Map<string, Map<number, Slot<V>>>();
  private readonly ordered = new Set<Slot<V>>();

  get size(): number {
    return this.ordered.size;
  }

  get(strategy: string, marketId: number): V | undefined {
    return this.byStrategy.get(strategy)?.get(marketId)?.value;
  }

  set(strategy: string, marketId: number, value: V): void {
    let markets = this.byStrategy.get(strategy);
    if (markets === undefined) {
      markets = new Map();
      this.byStrategy.set(strategy, markets);
    }
    const slot = markets.get(marketId);
    if (slot !== undefined) {
      slot.value = value;
      return;
    }
    const added: Slot<V> = { strategy, marketId, value };
    markets.set(marketId, added);
    this.ordered.add(added);
  }

  delete(strategy: string, marketId: number): boolean {
    const markets = this.byStrategy.get(strategy);
    const slot = markets?.get(marketId);
    if (markets === undefined || slot === undefined) return false;
    markets.delete(marketId);
    if (markets.size === 0) this.byStrategy.delete(strategy);
    this.ordered.delete(slot);
    return true;
  }

  /** The strategy's markets that hold a value, in the order they were added. */
  marketIds(strategy: string): IterableIterator<number> | readonly number[] {
    return this.byStrategy.get(strategy)?.keys() ?? [];
  }

  /** Every entry in insertion order; deleting while iterating is safe, as with a Map. */
  entries(): IterableIterator<StrategyMarketEntry<V>> {
    return this.ordered.values();
  }

  *values(): IterableIterator<V> {
    for (const slot of this.ordered) yield slot.value;
  }
}
