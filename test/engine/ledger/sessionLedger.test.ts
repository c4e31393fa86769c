import { describe, expect, it } from 'vitest';
import { addDecimals } from '../../../src/core/decimal.js';
import { SessionLedger, type AttributedFill } from '../../../src/engine/ledger/sessionLedger.js';

const marks = new Map<number, string>();
const ledgerAt = (mark: Record<number, string>) => {
  marks.clear();
  for (const [id, price] of Object.entries(mark)) marks.set(Number(id), price);
  return new SessionLedger((id) => marks.get(id));
};
const fill = (strategy: string | undefined, side: 'buy' | 'sell', size: string, price: string, fee = '0') =>
  ({ marketId: 1, side, size, price, fee, ...(strategy === undefined ? {} : { strategy }) }) satisfies AttributedFill;

describe('the session ledger', () => {
  it("books each fill for its strategy and for the account; the account is the strategies' sum when it started flat", () => {
    const ledger = ledgerAt({ 1: '105' });
    ledger.onFill(fill('mm', 'buy', '0.3', '100', '0.01'));
    ledger.onFill(fill('grid', 'sell', '0.1', '102', '0.002'));
    ledger.onFill(fill('mm', 'sell', '0.1', '104', '-0.001'));
    ledger.onFill(fill('grid', 'buy', '0.1', '101', '0.003'));
    const mm = ledger.strategyPnl('mm');
    const grid = ledger.strategyPnl('grid');
    // mm: 0.1 closed at +4 (0.4), 0.2 open from 100 at 105 (+1); grid: 0.1 short closed at +1 (0.1).
    expect(mm).toEqual({ realisedPnl: '0.4', unrealisedPnl: '1', fees: '0.009', netPnl: '1.391', unpricedMarkets: [] });
    expect(grid).toEqual({
      realisedPnl: '0.1',
      unrealisedPnl: '0',
      fees: '0.005',
      netPnl: '0.095',
      unpricedMarkets: [],
    });
    // The account's merged fills: +0.2 and +0.4 realised against 100, then 0.2 left at an average of
    // 100.5 (+0.9 at 105). The split differs from the strategies'; their sum and the fees agree.
    const account = ledger.accountPnl();
    expect(account).toMatchObject({ realisedPnl: '0.6', unrealisedPnl: '0.9', fees: '0.014', netPnl: '1.486' });
    expect(account.netPnl).toBe(addDecimals(mm.netPnl, grid.netPnl));
    expect(ledger.accountPositionValues()).toEqual([
      { marketId: 1, signedSize: '0.2', avgEntryPrice: '100.5', markPrice: '105', unrealisedPnl: '0.9' },
    ]);
    expect(ledger.strategyPositions('mm')).toEqual(new Map([[1, { side: 'buy', size: '0.2' }]]));
    expect(ledger.strategyPositions('grid')).toEqual(new Map());
    expect(ledger.accountPositions()).toEqual(new Map([[1, { side: 'buy', size: '0.2' }]]));
    expect(ledger.strategyNames()).toEqual(['mm', 'grid']);
  });

  it('keeps fills of orders not ours apart: counted for the account, never dropped', () => {
    const ledger = ledgerAt({ 1: '99' });
    ledger.onFill(fill('mm', 'buy', '1', '100'));
    ledger.onFill(fill(undefined, 'sell', '0.5', '101', '0.01'));
    expect(ledger.unattributed()).toEqual({
      fills: 1,
      pnl: { realisedPnl: '0', unrealisedPnl: '1', fees: '0.01', netPnl: '0.99', unpricedMarkets: [] },
    });
    // The account closes half of mm's long against the foreign sell: +0.5 realised, 0.5 open at 99.
    expect(ledger.accountPnl()).toMatchObject({ realisedPnl: '0.5', unrealisedPnl: '-0.5', fees: '0.01' });
    expect(ledger.strategyPnl('mm')).toMatchObject({ realisedPnl: '0', unrealisedPnl: '-1' });
  });

  it('starts the account from the opening positions (entry price, else the mark) and balance, once; a strategy starts flat', () => {
    const ledger = ledgerAt({ 1: '110', 2: '50' });
    expect(ledger.openingBalance()).toBeUndefined();
    ledger.seed(
      [
        { marketId: 1, side: 'sell', size: '2', avgEntryPrice: '100' },
        { marketId: 2, side: 'buy', size: '1' },
      ],
      '1000.25',
    );
    ledger.seed([{ marketId: 1, side: 'buy', size: '5', avgEntryPrice: '1' }], '5');
    expect(ledger.openingBalance()).toBe('1000.25');
    expect(ledger.accountPnl()).toMatchObject({ realisedPnl: '0', unrealisedPnl: '-20' });
    ledger.onFill(fill('mm', 'buy', '1', '105'));
    expect(ledger.accountPnl()).toMatchObject({ realisedPnl: '-5', unrealisedPnl: '-10' });
    expect(ledger.strategyPnl('mm')).toMatchObject({ realisedPnl: '0', unrealisedPnl: '5' });
    expect(ledger.holds(2)).toBe(true);
    expect(ledger.holds(3)).toBe(false);
  });

  it("reads the marks live, and a strategy's book follows its later fills", () => {
    const ledger = ledgerAt({ 1: '100' });
    const book = ledger.bookOf('mm');
    ledger.onFill(fill('mm', 'buy', '1', '100'));
    marks.set(1, '90');
    expect(book.pnl()).toMatchObject({ unrealisedPnl: '-10', netPnl: '-10' });
    expect(book.positions()).toEqual(new Map([[1, { side: 'buy', size: '1' }]]));
  });

  it('gives a kill switch the net of fees, and nothing while a position has no mark', () => {
    const ledger = ledgerAt({});
    ledger.onFill(fill('mm', 'buy', '1', '100', '0.5'));
    expect(ledger.strategyPnl('mm').unpricedMarkets).toEqual([1]);
    expect(ledger.bookOf('mm').loss()).toBeUndefined();
    expect(ledger.accountLoss()).toBeUndefined();
    marks.set(1, '97');
    const wei = 10n ** 18n;
    expect(ledger.bookOf('mm').loss()).toEqual({ realisedWei: -wei / 2n, unrealisedWei: -3n * wei });
    expect(ledger.accountLoss()).toEqual({ realisedWei: -wei / 2n, unrealisedWei: -3n * wei });
    expect(ledger.bookOf('nobody').loss()).toEqual({ realisedWei: 0n, unrealisedWei: 0n });
  });
});
