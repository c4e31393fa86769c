import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToWei, weiToDecimal } from '../../../src/core/decimal.js';
import { PnlLedger } from '../../../src/engine/ledger/pnlLedger.js';
import { compileMarkets, DEFAULT_MARKETS } from '../../../src/sim/exchange/markets.js';
import { applyFillToPosition, unrealizedPnlWei } from '../../../src/sim/exchange/positionMath.js';
import { ledgerFillArbitrary, ledgerFillOf } from './support/ledgerFillArbitrary.js';

const marks = (m: Record<number, string>) => (id: number) => m[id];

describe('PnL ledger (average entry, the venue’s valuation)', () => {
  it('realises against the average entry, values the rest at the mark, and adds fees up', () => {
    const ledger = new PnlLedger();
    ledger.onFill({ marketId: 1, side: 'buy', price: '100', size: '1', fee: '0.01' });
    ledger.onFill({ marketId: 1, side: 'buy', price: '110', size: '1', fee: '0.011' });
    ledger.onFill({ marketId: 1, side: 'sell', price: '120', size: '1.5', fee: '-0.002' });
    // Average entry 105: 1.5 closed at 120 realises 22.5; 0.5 left at 105, marked at 130: +12.5.
    expect(ledger.view(marks({ 1: '130' }))).toEqual({
      realisedPnl: '22.5',
      unrealisedPnl: '12.5',
      fees: '0.019',
      netPnl: '34.981',
      unpricedMarkets: [],
    });
    expect(ledger.position(1)).toEqual({ signedSize: '0.5', avgEntryPrice: '105' });
    expect(ledger.positionValues(marks({ 1: '130' }))).toEqual([
      { marketId: 1, signedSize: '0.5', avgEntryPrice: '105', markPrice: '130', unrealisedPnl: '12.5' },
    ]);
  });

  it('keeps the old names readable for strategies written against them, out of JSON', () => {
    const ledger = new PnlLedger();
    ledger.onFill({ marketId: 1, side: 'buy', price: '100', size: '1', fee: '0.5' });
    ledger.onFill({ marketId: 1, side: 'sell', price: '103', size: '1', fee: '0.5' });
    const view = ledger.view(() => '100');
    expect([view.realized, view.unrealized, view.net]).toEqual(['3', '0', '2']);
    expect(Object.keys(JSON.parse(JSON.stringify(view)) as object)).toEqual([
      'realisedPnl',
      'unrealisedPnl',
      'fees',
      'netPnl',
      'unpricedMarkets',
    ]);
  });

  it('flips through zero into a short at the fill price and gains when a short closes lower', () => {
    const ledger = new PnlLedger();
    ledger.onFill({ marketId: 2, side: 'buy', price: '10', size: '1', fee: '0' });
    ledger.onFill({ marketId: 2, side: 'sell', price: '12', size: '3', fee: '0' });
    expect(ledger.position(2)).toEqual({ signedSize: '-2', avgEntryPrice: '12' });
    ledger.onFill({ marketId: 2, side: 'buy', price: '11', size: '1', fee: '0' });
    // +2 on the long, +1 on the short's first unit; the short's other unit is worth 12 − 9 = 3.
    expect(ledger.view(marks({ 2: '9' }))).toMatchObject({ realisedPnl: '3', unrealisedPnl: '3' });
    expect(ledger.position(2)).toEqual({ signedSize: '-1', avgEntryPrice: '12' });
  });

  it('rounds the average half away from zero and PnL toward −infinity, at 1 wei', () => {
    const ledger = new PnlLedger();
    ledger.onFill({ marketId: 1, side: 'buy', price: '1', size: '1', fee: '0' });
    ledger.onFill({ marketId: 1, side: 'buy', price: '2', size: '2', fee: '0' });
    // 5/3 = 1.666…: the 19th digit rounds the 18th up.
    expect(ledger.position(1)?.avgEntryPrice).toBe('1.666666666666666667');
    ledger.onFill({ marketId: 1, side: 'sell', price: '1', size: '1', fee: '0' });
    // (1 − 1.666666666666666667) × 1: exact; marked at 1.5, 2 × (1.5 − 1.666…667) = −0.333…334.
    expect(ledger.view(() => '1.5')).toMatchObject({
      realisedPnl: '-0.666666666666666667',
      unrealisedPnl: '-0.333333333333333334',
    });
  });

  it('starts from a seeded position and lists markets without a mark as unpriced', () => {
    const ledger = new PnlLedger();
    ledger.seed(1, 'sell', '2', '50');
    ledger.onFill({ marketId: 1, side: 'buy', price: '45', size: '1', fee: '0' });
    ledger.onFill({ marketId: 3, side: 'buy', price: '1', size: '1', fee: '0' });
    const view = ledger.view(marks({ 1: '40' }));
    expect(view).toMatchObject({ realisedPnl: '5', unrealisedPnl: '10', unpricedMarkets: [3] });
    expect(ledger.positionValues(marks({ 1: '40' }))).toEqual([
      { marketId: 1, signedSize: '-1', avgEntryPrice: '50', markPrice: '40', unrealisedPnl: '10' },
      { marketId: 3, signedSize: '1', avgEntryPrice: '1' },
    ]);
    expect(ledger.position(4)).toBeUndefined();
  });

  it('refuses a fill finer than the venue’s 1 wei rather than round it', () => {
    const ledger = new PnlLedger();
    expect(() =>
      ledger.onFill({ marketId: 1, side: 'buy', price: '1.0000000000000000001', size: '1', fee: '0' }),
    ).toThrow(/fill price.*at most 18 decimal places/s);
  });

  it('books every fill as the simulator settles it: realised and unrealised equal to the wei', () => {
    const [market] = [...compileMarkets(DEFAULT_MARKETS).values()];
    const spec = market!;
    const fill = fc.record({
      buy: fc.boolean(),
      steps: fc.integer({ min: 1, max: 400 }),
      ticks: fc.integer({ min: 600_000, max: 700_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(fill, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 600_000, max: 700_000 }),
        (fills, markTicks) => {
          const ledger = new PnlLedger();
          let position = { sizeSteps: 0n, avgEntryWei: 0n };
          let realisedWei = 0n;
          for (const f of fills) {
            const priceWei = BigInt(f.ticks) * spec.tickWei;
            const outcome = applyFillToPosition(spec, position, f.buy ? 0 : 1, BigInt(f.steps), priceWei);
            position = outcome;
            realisedWei += outcome.realizedWei;
            ledger.onFill({
              marketId: 1,
              side: f.buy ? 'buy' : 'sell',
              price: weiToDecimal(priceWei),
              size: weiToDecimal(BigInt(f.steps) * spec.stepWei),
              fee: '0',
            });
          }
          const markWei = BigInt(markTicks) * spec.tickWei;
          const view = ledger.view(() => weiToDecimal(markWei));
          expect(view.realisedPnl).toBe(weiToDecimal(realisedWei));
          expect(view.unrealisedPnl).toBe(weiToDecimal(unrealizedPnlWei(spec, position, markWei)));
        },
      ),
    );
  });

  it("gives a kill switch the view's figures in wei: realised net of fees, unrealised at the marks", () => {
    const fill = ledgerFillArbitrary;
    fc.assert(
      fc.property(
        fc.array(fill, { maxLength: 12 }),
        fc.option(fc.integer({ min: 90_000, max: 110_000 })),
        (fills, m) => {
          const ledger = new PnlLedger();
          for (const f of fills) ledger.onFill(ledgerFillOf(f));
          // Market 2 has a mark only when market 1 has one too; none at all when `m` is null.
          const markOf = (id: number) => (m === null ? undefined : ((m + id) / 1000).toString());
          const view = ledger.view(markOf);
          const loss = ledger.loss(markOf);
          if (view.unpricedMarkets.length > 0) expect(loss).toBeUndefined();
          else
            expect(loss).toEqual({
              realisedWei: decimalToWei(view.realisedPnl, 'realised') - decimalToWei(view.fees, 'fees'),
              unrealisedWei: decimalToWei(view.unrealisedPnl, 'unrealised'),
            });
        },
      ),
    );
  });
});
