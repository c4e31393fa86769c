import fc from 'fast-check';

/** A fill on market 1 or 2 as the ledgers' property tests draw it: whole units of size, price and fee. */
export const ledgerFillArbitrary = fc.record({
  marketId: fc.constantFrom(1, 2),
  buy: fc.boolean(),
  size: fc.integer({ min: 1, max: 5_000 }),
  price: fc.integer({ min: 90_000, max: 110_000 }),
  fee: fc.integer({ min: -50, max: 500 }),
});

/** A drawn fill as the ledgers take it: size and price in thousandths, the fee in ten-thousandths. */
export function ledgerFillOf(f: { marketId: number; buy: boolean; size: number; price: number; fee: number }) {
  return {
    marketId: f.marketId,
    side: f.buy ? ('buy' as const) : ('sell' as const),
    size: (f.size / 1000).toString(),
    price: (f.price / 1000).toString(),
    fee: (f.fee / 10_000).toString(),
  };
}
