import { describe, expect, it } from 'vitest';
import { addDecimals } from '../../../src/core/decimal.js';
import { StrategyLedger, type LedgerFill } from '../../../src/runtime/wiring/strategyLedger.js';

const fill = (side: 'buy' | 'sell', size: string, price: string, fee = '0', marketId = 1): LedgerFill => ({
  marketId,
  side,
  size,
  price,
  fee,
});

describe('StrategyLedger', () => {
  it.each([
    ['nothing traded', [], '60000', [], '0'],
    [
      'a long at the mark it was bought at, minus the fee',
      [fill('buy', '0.01', '65000', '0.13')],
      '65000',
      [[1, { side: 'buy', size: '0.01' }]],
      '-0.13',
    ],
    [
      'a long after the mark fell 6000',
      [fill('buy', '0.01', '65000')],
      '59000',
      [[1, { side: 'buy', size: '0.01' }]],
      '-60',
    ],
    [
      'a short after the mark fell 1000',
      [fill('sell', '0.02', '65000')],
      '64000',
      [[1, { side: 'sell', size: '0.02' }]],
      '20',
    ],
    [
      'a round trip is flat and keeps its PnL',
      [fill('buy', '0.01', '65000', '0.1'), fill('sell', '0.01', '65500', '-0.05')],
      '1',
      [],
      '4.95',
    ],
    [
      'partly closed',
      [fill('buy', '0.03', '100'), fill('sell', '0.01', '110')],
      '105',
      [[1, { side: 'buy', size: '0.02' }]],
      '0.2',
    ],
  ] as const)('%s', (_label, fills, mark, positions, pnl) => {
    const ledger = new StrategyLedger();
    for (const f of fills) ledger.onFill(f);
    expect([...ledger.positions()]).toEqual(positions);
    const snapshot = ledger.pnl(() => mark);
    expect(snapshot && addDecimals(snapshot.realized, snapshot.unrealized)).toBe(pnl);
  });

  it('keeps markets apart and cannot value a position without its mark', () => {
    const ledger = new StrategyLedger();
    ledger.onFill(fill('buy', '1', '10', '0', 1));
    ledger.onFill(fill('sell', '2', '5', '0', 2));
    expect(Object.fromEntries(ledger.positions())).toEqual({
      1: { side: 'buy', size: '1' },
      2: { side: 'sell', size: '2' },
    });
    expect(ledger.pnl((id) => (id === 1 ? '11' : undefined))).toBeUndefined();
    const both = ledger.pnl((id) => (id === 1 ? '11' : '4'));
    expect(both && addDecimals(both.realized, both.unrealized)).toBe('3');
  });
});
