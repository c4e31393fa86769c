import { describe, expect, it } from 'vitest';
import {
  GridTracker,
  gridLevels,
  initialGridOrders,
  missingGridOrders,
  restingPrice,
  takeOverLadder,
} from '../../strategies/grid.js';
import { resumeEntry } from '../../strategies/momentumTaker.js';
import type { OpenOrderSnapshot } from '../../src/strategy/index.js';

/** An own resting order as ctx.state.openOrders() gives it. */
function order(
  intentId: string,
  side: 'buy' | 'sell',
  price: string,
  extra: Partial<OpenOrderSnapshot> = {},
): OpenOrderSnapshot {
  return {
    orderId: `0x${intentId}`,
    intentId,
    strategy: 's',
    marketId: 1,
    side,
    price,
    size: '0.001',
    filledSize: '0',
    state: 'open',
    ...extra,
  };
}

describe('grid ladder', () => {
  const levels = gridLevels('100', '110', 6); // 100 102 104 106 108 110

  it('leaves the level nearest the mark empty, so a replacement never lands on a taken level', () => {
    expect(initialGridOrders(levels, '105.5').map((o) => `${o.side}@${o.level}`)).toEqual([
      'buy@0',
      'buy@1',
      'buy@2',
      'sell@4',
      'sell@5',
    ]);
    // A tie goes to the lower level; a level at the mark is the gap.
    expect(initialGridOrders(levels, '105').map((o) => o.level)).toEqual([0, 1, 3, 4, 5]);
    expect(initialGridOrders(levels, '104').map((o) => o.level)).toEqual([0, 1, 3, 4, 5]);
    // Outside the range every level but the nearest edge is placed.
    expect(initialGridOrders(levels, '120').map((o) => `${o.side}@${o.level}`)).toEqual([
      'buy@0',
      'buy@1',
      'buy@2',
      'buy@3',
      'buy@4',
    ]);
  });

  it('places only the missing levels around the ones still resting', () => {
    // Levels 0, 1, 4, 5 rest; 2 and 3 are free: the one nearer the mark is the gap.
    expect(missingGridOrders(levels, '103.5', new Set([0, 1, 4, 5]))).toEqual([
      { level: 3, side: 'sell', price: levels[3] },
    ]);
    expect(missingGridOrders(levels, '106.9', new Set([0, 1, 4, 5]))).toEqual([
      { level: 2, side: 'buy', price: levels[2] },
    ]);
    // A full ladder (one gap) lacks nothing; neither does one with no gap left.
    expect(missingGridOrders(levels, '105', new Set([0, 1, 3, 4, 5]))).toEqual([]);
    expect(missingGridOrders(levels, '105', new Set([0, 1, 2, 3, 4, 5]))).toEqual([]);
  });

  it('rounds a level to where the engine rests it: buys down, sells up to the tick', () => {
    expect(restingPrice('1.333333333333333333', 'buy', '0.01')).toBe('1.33');
    expect(restingPrice('1.333333333333333333', 'sell', '0.01')).toBe('1.34');
    expect(restingPrice('102', 'sell', '0.5')).toBe('102');
    expect(restingPrice('1.3', 'buy', undefined)).toBe('1.3');
  });

  const params = { lower: '100', upper: '110', levels: 6 };

  it('keeps saved orders at their levels with what is left of them', () => {
    const saved = {
      ...params,
      orders: [
        { intentId: 'g-1', level: 0, side: 'buy' as const },
        { intentId: 'g-2', level: 5, side: 'sell' as const },
      ],
    };
    const own = [order('g-1', 'buy', '100', { filledSize: '0.0004' }), order('g-2', 'sell', '110')];
    expect(takeOverLadder(levels, params, '0.1', saved, own)).toEqual({
      kept: [
        { intentId: 'g-1', order: { level: 0, side: 'buy', price: '100' }, remaining: '0.0006' },
        { intentId: 'g-2', order: { level: 5, side: 'sell', price: '110' }, remaining: '0.001' },
      ],
      cancel: [],
    });
  });

  it('places unsaved orders by price, and cancels off-grid orders and a second order on a level', () => {
    const saved = { ...params, orders: [{ intentId: 'g-1', level: 1, side: 'buy' as const }] };
    const own = [
      order('adopted-0xa', 'buy', '102'), // same level as the saved g-1: cancelled, g-1 kept
      order('g-1', 'buy', '102'),
      order('adopted-0xb', 'sell', '108'), // matches level 4 by price: kept
      order('adopted-0xc', 'sell', '107'), // between levels: cancelled
    ];
    const t = takeOverLadder(levels, params, '0.1', saved, own);
    expect(t.kept.map((k) => [k.intentId, k.order.level])).toEqual([
      ['g-1', 1],
      ['adopted-0xb', 4],
    ]);
    expect(t.cancel).toEqual([{ intentId: 'adopted-0xa' }, { intentId: 'adopted-0xc' }]);
  });

  it('ignores a ladder saved for other params and matches by price instead', () => {
    const saved = {
      lower: '90',
      upper: '110',
      levels: 3,
      orders: [{ intentId: 'g-1', level: 1, side: 'buy' as const }],
    };
    expect(
      takeOverLadder(levels, params, '0.1', saved, [order('g-1', 'buy', '100')]).kept.map((k) => k.order.level),
    ).toEqual([0]);
    expect(takeOverLadder(levels, params, '0.1', saved, [order('g-1', 'buy', '101')]).cancel).toEqual([
      { intentId: 'g-1' },
    ]);
  });

  it('tracks kept orders by what is left, and knows which levels are taken', () => {
    const tracker = new GridTracker('0.001');
    tracker.track('g-1', { level: 0, side: 'buy', price: '100' }, '0.0006');
    tracker.track('g-2', { level: 5, side: 'sell', price: '110' });
    expect([...tracker.occupiedLevels()]).toEqual([0, 5]);
    expect(tracker.entries()).toEqual([
      { intentId: 'g-1', level: 0, side: 'buy' },
      { intentId: 'g-2', level: 5, side: 'sell' },
    ]);
    expect(tracker.onFill('g-1', '0.0006')).toEqual({ level: 0, side: 'buy', price: '100' });
    expect(tracker.forget('g-2')).toBe(true);
    expect(tracker.forget('g-2')).toBe(false);
    expect(tracker.occupiedLevels().size).toBe(0);
  });
});

describe('momentum taker resumes its entry on start', () => {
  const long = { marketId: 1, side: 'buy' as const, size: '0.01', signedSize: '0.01' };

  it('resumes the saved entry while the position it was saved for is open', () => {
    expect(resumeEntry({ side: 'buy', entryPrice: '65000' }, long)).toEqual({ entryPrice: '65000', forget: false });
  });

  it('falls back on the venue average entry, and forgets a saved entry of the other side', () => {
    expect(resumeEntry({ side: 'sell', entryPrice: '65000' }, { ...long, avgEntryPrice: '64000' })).toEqual({
      entryPrice: '64000',
      forget: true,
    });
    expect(resumeEntry(undefined, { ...long, avgEntryPrice: '64000' })).toEqual({ entryPrice: '64000', forget: false });
    // Neither: the strategy takes the first mark as the entry.
    expect(resumeEntry(undefined, long)).toEqual({ forget: false });
  });

  it('forgets the entry when flat', () => {
    expect(resumeEntry({ side: 'buy', entryPrice: '65000' }, undefined)).toEqual({ forget: true });
    expect(resumeEntry({ side: 'buy', entryPrice: '65000' }, { ...long, size: '0', signedSize: '0' })).toEqual({
      forget: true,
    });
    expect(resumeEntry(undefined, undefined)).toEqual({ forget: false });
  });
});
