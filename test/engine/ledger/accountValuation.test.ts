import { describe, expect, it } from 'vitest';
import { bookedBalance, equityOf, valueAccount } from '../../../src/engine/ledger/accountValuation.js';
import { SessionLedger } from '../../../src/engine/ledger/sessionLedger.js';

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

  it('gives a replay the balance the ledger books, and equity on it', () => {
    marks.set(1, '99');
    const l = ledger();
    l.onFill({ marketId: 1, side: 'buy', price: '100', size: '1', fee: '0.05' });
    const pnl = l.accountPnl();
    expect(bookedBalance('1000', pnl)).toBe('999.95');
    expect(equityOf(bookedBalance('1000', pnl), pnl)).toBe('998.95');
    marks.clear();
    expect(equityOf('1000', l.accountPnl())).toBeNull();
  });
});
