import { describe, expect, it } from 'vitest';
import { OrderSequenceTally, sequencesAsPlanned } from '../../../../bench/lib/throughput/orderSequences.js';
import { orderIdHex, wideOrderId } from '../../../../src/sim/exchange/orderIds.js';
import { ID_BASE_LIMIT } from '../../../../src/sim/exchange/simIdBases.js';

/** A place answer as the simulator writes it, for the order numbered `sequence`. */
function placeAnswer(sequence: bigint, side: 0 | 1 = 0): string {
  return `{"data":{"order_id":"${orderIdHex(wideOrderId(sequence, side))}","status":"open"}}`;
}

describe('OrderSequenceTally', () => {
  it('tells 1,500 orders apart when their numbers are far above 2^53 (the simulator numbers from a random 61-bit base)', () => {
    const first = ID_BASE_LIMIT - 10_000n;
    expect(first > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const tally = new OrderSequenceTally();
    for (let k = 0n; k < 1_500n; k++) expect(tally.add(placeAnswer(first + k, Number(k % 2n) as 0 | 1))).toBe(true);
    const range = tally.range();
    expect(range).toEqual({ min: first.toString(), max: (first + 1_499n).toString(), distinct: 1_500 });
    expect(sequencesAsPlanned(range, first, 1_500)).toBe(true);
    // As numbers, those ids would have collapsed to a handful: the reason the tally keeps bigints.
    expect(new Set(Array.from({ length: 1_500 }, (_, k) => Number(first + BigInt(k)))).size).toBeLessThan(1_500);
  });

  it('refuses a round whose numbers are off by one, or where one number came twice', () => {
    const first = 2n ** 60n + 7n;
    const tally = new OrderSequenceTally();
    for (const k of [0n, 1n, 2n]) tally.add(placeAnswer(first + k));
    expect(sequencesAsPlanned(tally.range(), first, 3)).toBe(true);
    expect(sequencesAsPlanned(tally.range(), first + 1n, 3)).toBe(false);
    expect(sequencesAsPlanned(tally.range(), first, 4)).toBe(false);
    tally.add(placeAnswer(first + 2n));
    tally.add(placeAnswer(first + 3n));
    // Five answers, four distinct numbers: the round is refused for five pairs.
    expect(sequencesAsPlanned(tally.range(), first, 5)).toBe(false);
  });

  it('reads nothing from an answer without an order id, and has no range before the first one', () => {
    const tally = new OrderSequenceTally();
    expect(tally.add('{"data":{}}')).toBe(false);
    expect(tally.range()).toBeUndefined();
    expect(sequencesAsPlanned(undefined, 1n, 1)).toBe(false);
  });
});
