/**
 * The sequence numbers (wide id >> 1) of the orders a load run placed, read from the simulator's
 * answers. The ids are 64-bit (the simulator numbers each run from a random base below 2^61), so
 * they are bigints here and decimal strings in the result: as JavaScript numbers, ids above 2^53
 * collapse (1,500 distinct orders read as 6 to 13).
 */
export interface OrderSequenceRange {
  /** Decimal strings: a sequence is a 62-bit integer. */
  readonly min: string;
  readonly max: string;
  readonly distinct: number;
}

const ORDER_ID = /"order_id":"0x([0-9a-f]{16})/;

export class OrderSequenceTally {
  private readonly seen = new Set<bigint>();
  private min: bigint | undefined;
  private max: bigint | undefined;

  /** Reads the order id of a place answer's body; false when the body carries none. */
  add(body: string): boolean {
    const match = ORDER_ID.exec(body);
    if (match === null) return false;
    const sequence = BigInt(`0x${match[1]}`) >> 1n;
    this.seen.add(sequence);
    if (this.min === undefined || sequence < this.min) this.min = sequence;
    if (this.max === undefined || sequence > this.max) this.max = sequence;
    return true;
  }

  /** The range read so far, or undefined before the first id. */
  range(): OrderSequenceRange | undefined {
    if (this.min === undefined || this.max === undefined) return undefined;
    return { min: this.min.toString(), max: this.max.toString(), distinct: this.seen.size };
  }
}

/**
 * Whether the places of a round got exactly the numbers `first` to `first + count - 1`, each once:
 * what the pre-signed cancels committed to.
 */
export function sequencesAsPlanned(range: OrderSequenceRange | undefined, first: bigint, count: number): boolean {
  if (range === undefined) return false;
  return BigInt(range.min) === first && BigInt(range.max) === first + BigInt(count) - 1n && range.distinct === count;
}
