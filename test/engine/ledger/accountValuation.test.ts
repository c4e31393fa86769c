import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals, negateDecimal } from '../../../src/core/decimal.js';
import { equityOf, valueAccount } from '../../../src/engine/ledger/accountValuation.js';
import { BookedEquity } from '../../../src/engine/ledger/bookedEquity.js';
import { SessionLedger } from '../../../src/engine/ledger/sessionLedger.js';
import { ledgerFillArbitrary, ledgerFillOf } from './support/ledgerFillArbitrary.js';

const marks = new Map<number, string>();
const ledger = (): SessionLedger => new SessionLedger((id) => marks.get(id));

describe('the account valued one way', () => {
  it('reconciles the balance change with realisedPnl − fees, and names what else moved it', () => {
    marks.set(1, '110');
    const l = ledger();
    l.seed([], '1000');
    l.onFill({ marketId: 1, side: 'buy', price: '100', size: '2', fee: '0.2', strategy: 'mm' });
    l.onFill({ marketId: 1, side: 'sell', price: '105', size: '1', fee: '0.105', strategy: 'mm' });
    // The venue settled +5 − 0.305, and paid 0.5 of funding besides.
    const v = valueAccount(l, '1005.195');
    expect(v).toMatchObject({
      balance: '1005.195',
      openingBalance: '1000',
      balanceChange: '5.195',
      otherBalanceChange: '0.5',
      equity: '1015.195',
      positions: [{ marketId: 1, signedSize: '1', avgEntryPrice: '100', markPrice: '110', unrealisedPnl: '10' }],
    });
    expect(v.pnl).toMatchObject({ realisedPnl: '5', unrealisedPnl: '10', fees: '0.305', netPnl: '14.695' });
  });

  it('leaves out what it cannot know: no balance yet, no opening balance, a market without a mark', () => {
    marks.clear();
    const l = ledger();
    l.seed([{ marketId: 2, side: 'sell', size: '1', avgEntryPrice: '50' }]);
    expect(valueAccount(l, undefined)).toMatchObject({
      balance: null,
      openingBalance: null,
      balanceChange: null,
      otherBalanceChange: null,
      equity: null,
      positions: [{ marketId: 2, signedSize: '-1', avgEntryPrice: '50' }],
    });
    expect(valueAccount(l, '10')).toMatchObject({ balance: '10', balanceChange: null, equity: null });
    marks.set(2, '40');
    expect(valueAccount(l, '10').equity).toBe('20');
  });

  it('gives a replay equity on the balance the ledger books', () => {
    marks.set(1, '99');
    const l = ledger();
    l.onFill({ marketId: 1, side: 'buy', price: '100', size: '1', fee: '0.05' });
    const booked = new BookedEquity('1000');
    // 1000 − 0.05 of fees, and 1 long from 100 at 99.
    expect(booked.text(booked.units(l))).toBe('998.95');
    expect(equityOf('999.95', l.accountPnl())).toBe('998.95');
    marks.clear();
    // Unmarked, the position counts at its entry.
    expect(booked.text(booked.units(l))).toBe('999.95');
    expect(equityOf('1000', l.accountPnl())).toBeNull();
    // A balance finer than a wei is kept to its last digit.
    const fine = new BookedEquity('1000.0000000000000000001');
    expect(fine.text(fine.units(l))).toBe('999.9500000000000000001');
  });

  it('books equity as the balance plus realisedPnl − fees plus the marked positions’ unrealisedPnl, to the wei', () => {
    const fill = ledgerFillArbitrary;
    const marked = fc.option(fc.integer({ min: 90_000, max: 110_000 }));
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 10 }), marked, marked, (fills, mark1, mark2) => {
        marks.clear();
        if (mark1 !== null) marks.set(1, (mark1 / 1000).toString());
        if (mark2 !== null) marks.set(2, (mark2 / 1000).toString());
        const l = ledger();
        for (const f of fills) l.onFill(ledgerFillOf(f));
        const pnl = l.accountPnl();
        const balance = addDecimals('25000.5', addDecimals(pnl.realisedPnl, negateDecimal(pnl.fees)));
        const booked = new BookedEquity('25000.5');
        expect(booked.text(booked.units(l))).toBe(addDecimals(balance, pnl.unrealisedPnl));
      }),
    );
  });
});
