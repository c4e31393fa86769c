/**
 * client_order_id for every placement that has none: unique per run (start time in ms, < 2^42,
 * shifted left by 20 bits stays within uint64) and interleaved by nonce slot, so processes sharing
 * the account and started in the same millisecond never share one — confirmation after an
 * ambiguous answer looks orders up by it.
 */
export class ClientOrderIds {
  private seq = 0n;
  private readonly base: bigint;

  constructor(
    startMs: number,
    private readonly slot: number,
    private readonly slots: number,
  ) {
    this.base = BigInt(startMs) << 20n;
  }

  next(): bigint {
    this.seq += 1n;
    return this.base + this.seq * BigInt(this.slots) + BigInt(this.slot);
  }
}
