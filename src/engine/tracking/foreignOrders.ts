interface ForeignOrder {
  readonly marketId: number;
  readonly restingOrderId?: bigint;
}

/**
 * Open orders on the venue that no intent of this process placed (another process on the account,
 * a previous run), as the orders feed lists them: the open-orders guard counts them, and a cancel
 * by order id needs their resting id. Keyed by order_id in lower case.
 */
export class ForeignOrders {
  private readonly byKey = new Map<string, ForeignOrder>();

  /** The order is open on the venue. */
  open(key: string, marketId: number, restingOrderId: bigint | undefined): void {
    this.byKey.set(key, restingOrderId === undefined ? { marketId } : { marketId, restingOrderId });
  }

  /** The order is no longer open, or it turned out to be ours. */
  forget(key: string): void {
    this.byKey.delete(key);
  }

  restingIdOf(key: string): bigint | undefined {
    return this.byKey.get(key)?.restingOrderId;
  }

  /** After a snapshot of every open order: the ones it did not list are gone. */
  keepOnly(listed: ReadonlySet<string>): void {
    for (const key of [...this.byKey.keys()]) if (!listed.has(key)) this.byKey.delete(key);
  }

  list(): { orderId: string; marketId: number }[] {
    return [...this.byKey.entries()].map(([orderId, o]) => ({ orderId, marketId: o.marketId }));
  }

  /** Adds one per foreign order to its market's count. */
  addCountsTo(counts: Map<number, number>): void {
    for (const o of this.byKey.values()) counts.set(o.marketId, (counts.get(o.marketId) ?? 0) + 1);
  }
}
