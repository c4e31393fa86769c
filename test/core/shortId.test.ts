import { describe, expect, it } from 'vitest';
import { shortId } from '../../src/core/shortId.js';
import { orderIdHex, wideOrderId } from '../../src/sim/exchange/orderIds.js';

describe('shortId', () => {
  it.each([
    // A venue order id: 8 bytes of wide id (leading zeros), then 16 opaque bytes.
    ['0x0000000000000004d1e5c0a4f3b2e1d07a6b5c4d3e2f1a09', '0x04d1…3e2f1a09'],
    ['0x00000000000003e8d1e5c0a4f3b2e1d07a6b5c4d3e2f1a09', '0x03e8…3e2f1a09'],
    // An address: its own first and last digits, as wallets show them.
    ['0x71c7656ec7ab88b098defb751b7401b5f6d8976f', '0x71c7…f6d8976f'],
    // Short once the zero bytes are gone: whole, without them.
    ['0x00000000000000000000000000000000000000aa', '0xaa'],
    ['0x000000000000000000000000000000000000abcd', '0xabcd'],
    ['0x0000000000000000', '0x00'],
    ['0x00123', '0x0123'],
    // Short ids stay as they are.
    ['0xb1', '0xb1'],
    ['0x1234567890abcd', '0x1234567890abcd'],
    // Not hex: whole up to 20 characters, else head and tail.
    ['mm-1730000000000-17', 'mm-1730000000000-17'],
    ['strategy-a-1730000000000-0000017', 'strategy-a…000017'],
  ])('%s reads %s', (id, short) => {
    expect(shortId(id)).toBe(short);
  });

  // The wide id in an order id's first 8 bytes is a sequence: consecutive orders share its first
  // digits, whether it counts from 1 (all zeros: what the dashboard's first 10 characters showed)
  // or from a run's random base (COUNTING_FROM_ONE and randomIdBases in the simulator).
  it.each([
    ['counting from 1', 0n],
    ['from a random base', 0x12a4_5f00_9c3e_1b77n],
  ])('tells apart consecutive order ids of the simulator counting %s', (_name, base) => {
    const ids = Array.from({ length: 200 }, (_, i) => orderIdHex(wideOrderId(base + BigInt(i + 1), (i % 2) as 0 | 1)));
    expect(new Set(ids.map((id) => id.slice(0, 14))).size).toBe(1);
    const shown = ids.map(shortId);
    expect(new Set(shown).size).toBe(ids.length);
    for (const s of shown) expect(s.length).toBeLessThanOrEqual(15);
  });

  it('tells apart ids that differ only in their last digits or only in their first significant ones', () => {
    const a = '0x0000000000000004aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    expect(shortId(a)).not.toBe(shortId(a.replace(/a$/, 'b')));
    expect(shortId(a)).not.toBe(shortId(a.replace('04aa', '06aa')));
  });
});
