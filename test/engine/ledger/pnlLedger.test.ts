import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals, multiplyDecimals, negateDecimal } from '../../../src/core/decimal.js';
import { PnlLedger } from '../../../src/engine/ledger/pnlLedger.js';

const marks = (m: Record<number, string>) => (id: number) => m[id];

describe('PnL ledger', () => {
  it('realizes closed lots first in, first out, values the rest at the mark, and adds fees up', () => {
    const ledger = new PnlLedger();
    ledger.onFill({ marketId: 1, side: 'buy', price: '100', size: '1', fee: '0.01' });
    ledger.onFill({ marketId: 1, side: 'buy', price: '110', size: '1', fee: '0.011' });
    ledger.onFill({ marketId: 1, side: 'sell', price: '120', size: '1.5', fee: '-0.002' });
    // 1 @ 100 closed at 120 (+20), 0.5 @ 110 closed at 120 (+5); 0.5 @ 110 left.
    expect(ledger.view(marks({ 1: '130' }))).toEqual({
      realized: '25',
      unrealized: '10',
      fees: '0.019',
      net: '34.981',
      unpricedMarkets: [],
    });
    expect(ledger.netSize(1)).toBe('0.5');
    expect(ledger.position(1)).toEqual({ signedSize: '0.5', avgEntryPrice: '110' });
  });

  it('flips through zero into a short and gains when a short closes lower', () => {
    const ledger = new PnlLedger();
    ledger.onFill({ marketId: 2, side: 'buy', price: '10', size: '1', fee: '0' });
    ledger.onFill({ marketId: 2, side: 'sell', price: '12', size: '3', fee: '0' });
    expect(ledger.netSize(2)).toBe('-2');
    ledger.onFill({ marketId: 2, side: 'buy', price: '11', size: '1', fee: '0' });
    expect(ledger.view(marks({ 2: '9' }))).toMatchObject({ realized: '3', unrealized: '3' });
    expect(ledger.position(2)).toEqual({ signedSize: '-1', avgEntryPrice: '12' });
  });

  it('starts from a seeded position and lists markets without a mark as unpriced', () => {
    const ledger = new PnlLedger();
    ledger.seed(1, 'sell', '2', '50');
    ledger.onFill({ marketId: 1, side: 'buy', price: '45', size: '1', fee: '0' });
    ledger.onFill({ marketId: 3, side: 'buy', price: '1', size: '1', fee: '0' });
    const view = ledger.view(marks({ 1: '40' }));
    expect(view).toMatchObject({ realized: '5', unrealized: '10', unpricedMarkets: [3] });
    ledger.resetPosition(1, 'buy', '1', '3');
    expect(ledger.position(1)).toEqual({ signedSize: '1', avgEntryPrice: '3' });
    expect(ledger.position(4)).toBeUndefined();
  });

  it('values open lots exactly: unrealized is the sum of size x (mark - price) over the lots, in canonical form', () => {
    const decimal = fc
      .tuple(fc.integer({ min: 1, max: 10 ** 7 }), fc.integer({ min: 0, max: 6 }))
      .map(([units, scale]) => (units / 10 ** scale).toFixed(scale));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(decimal, decimal), { minLength: 1, maxLength: 8 }),
        decimal,
        (buy, fills, mark) => {
          // One direction only: each fill stays an open lot (sells as negative sizes).
          const ledger = new PnlLedger();
          for (const [price, size] of fills)
            ledger.onFill({ marketId: 1, side: buy ? 'buy' : 'sell', price, size, fee: '0' });
          let expected = '0';
          for (const [price, size] of fills) {
            const signed = buy ? size : negateDecimal(size);
            expected = addDecimals(expected, multiplyDecimals(signed, addDecimals(mark, negateDecimal(price))));
          }
          expect(ledger.view(() => mark).unrealized).toBe(expected);
        },
      ),
    );
  });
});
