import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToFixed, fixedToDecimal } from '../../../../src/core/decimal.js';
import { toPlaces } from '../../../../src/core/displayDecimal.js';
import { valueAccount } from '../../../../src/engine/ledger/accountValuation.js';
import { SessionLedger } from '../../../../src/engine/ledger/sessionLedger.js';
import {
  accountDisplay,
  pnlDisplay,
  price,
  pricePlacesOf,
  usdc,
} from '../../../../src/runtime/operations/control/statusDisplay.js';

const micro = (shown: string | null | undefined): bigint => {
  expect(shown).toMatch(/^-?\d+\.\d{6}$/);
  return decimalToFixed(shown, 6, 'shown');
};

describe('money as screens show it', () => {
  it('prints USDC with 6 places and prices with the places of the market tick, exact when the grid is unknown', () => {
    expect(usdc('999.853798214999999996')).toBe('999.853798');
    expect(usdc('-0.0000005')).toBe('0.000000');
    expect(price('65019.771428571428571429', pricePlacesOf({ config: { step_price: '0.1' } }))).toBe('65019.8');
    expect(price('65019.75', 1)).toBe('65019.8');
    expect(price('65019.65', 1)).toBe('65019.6');
    expect(price('3200.005', pricePlacesOf({ config: { step_price: '0.01' } }))).toBe('3200.00');
    expect(price('1.5', pricePlacesOf(undefined))).toBe('1.5');
    expect(pricePlacesOf({ config: { step_price: 'x' } })).toBeUndefined();
  });

  it('shows a PnL whose lines add up: realised − fees + unrealised = net on screen', () => {
    expect(pnlDisplay({ realisedPnl: '0.0000005', fees: '0.0000005', unrealisedPnl: '0.0000015' })).toEqual({
      realisedPnl: '0.000000',
      fees: '0.000000',
      unrealisedPnl: '0.000002',
      netPnl: '0.000002',
    });
  });

  it('shows the account as a statement that adds up to the last digit, balances rounded half to even', () => {
    const wei = fc.bigInt({ min: 1n, max: 10n ** 21n }).map((w) => fixedToDecimal(w, 18));
    const fill = fc.record({
      buy: fc.boolean(),
      size: fc.integer({ min: 1, max: 500 }).map((n) => fixedToDecimal(BigInt(n), 5)),
      price: fc.integer({ min: 600_000, max: 700_000 }).map((n) => fixedToDecimal(BigInt(n), 1)),
      fee: wei,
    });
    const mark = fc.bigInt({ min: 6n * 10n ** 22n, max: 7n * 10n ** 22n }).map((w) => fixedToDecimal(w, 18));
    fc.assert(
      fc.property(fc.array(fill, { minLength: 1, maxLength: 10 }), mark, mark, wei, (fills, m1, m2, other) => {
        const marks = new Map([
          [1, m1],
          [2, m2],
        ]);
        const ledger = new SessionLedger((id) => marks.get(id));
        ledger.seed([], '1000.0000004');
        fills.forEach((f, i) => ledger.onFill({ marketId: 1 + (i % 2), side: f.buy ? 'buy' : 'sell', ...f }));
        const pnl = ledger.accountPnl();
        // The venue's balance: fills and fees, and some funding besides.
        const balance = fixedToDecimal(
          decimalToFixed('1000.0000004', 18, 'b') +
            decimalToFixed(pnl.realisedPnl, 18, 'r') -
            decimalToFixed(pnl.fees, 18, 'f') +
            decimalToFixed(other, 18, 'o'),
          18,
        );
        const valuation = valueAccount(ledger, balance);
        const { account, positions } = accountDisplay(valuation, () => 1);
        const shown = account.pnl!;
        expect(account.balance).toBe(toPlaces(balance, 6));
        expect(account.openingBalance).toBe('1000.000000');
        expect(account.equity).toBe(toPlaces(valuation.equity!, 6));
        expect(micro(shown.realisedPnl) - micro(shown.fees) + micro(account.otherBalanceChange)).toBe(
          micro(account.balanceChange),
        );
        expect(micro(account.openingBalance) + micro(account.balanceChange)).toBe(micro(account.balance));
        expect(micro(account.balance) + micro(shown.unrealisedPnl)).toBe(micro(account.equity));
        expect(micro(shown.realisedPnl) + micro(shown.unrealisedPnl) - micro(shown.fees)).toBe(micro(shown.netPnl));
        expect(positions.map((p) => micro(p.unrealisedPnl)).reduce((a, b) => a + b, 0n)).toBe(
          micro(shown.unrealisedPnl),
        );
        for (const p of positions) expect(p.avgEntryPrice).toMatch(/^\d+\.\d$/);
      }),
      { numRuns: 200 },
    );
  });

  it('without both balances, rounds the PnL from zero and each balance by itself; unpriced, shows no PnL', () => {
    const marks = new Map<number, string>();
    const ledger = new SessionLedger((id) => marks.get(id));
    ledger.onFill({ marketId: 1, side: 'buy', price: '100', size: '1', fee: '0.0000015' });
    const unpriced = accountDisplay(valueAccount(ledger, '5.1234565'), () => 2);
    expect(unpriced.account).toEqual({
      balance: '5.123456',
      openingBalance: null,
      balanceChange: null,
      otherBalanceChange: null,
      equity: null,
      pnl: null,
    });
    expect(unpriced.positions).toEqual([{ avgEntryPrice: '100.00', markPrice: null, unrealisedPnl: null }]);
    marks.set(1, '100.0000005');
    const priced = accountDisplay(valueAccount(ledger, '5.1234565'), () => 2);
    // A statement from 0: −0.0000015 rounds (half to even) to −0.000002, then the exact net −0.000001
    // is shown as it is, so the 0.0000005 of unrealised PnL shows as the unit that makes it add up.
    expect(priced.account.pnl).toEqual({
      realisedPnl: '0.000000',
      fees: '0.000002',
      unrealisedPnl: '0.000001',
      netPnl: '-0.000001',
    });
    expect(priced.account.equity).toBe('5.123457');
  });
});
