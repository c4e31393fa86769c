import { describe, expect, it } from 'vitest';
import { gridLevels, levelOfOrder, nearestLevel, restingPrice } from '../../strategies/grid.js';
import { resumeEntry } from '../../strategies/momentumTaker.js';
describe('grid ladder', () => {
  const levels = gridLevels('100', '110', 6); // 100 102 104 106 108 110

  it('starts with the gap at the level nearest the mark (the lower one on a tie, an edge outside the range)', () => {
    expect(nearestLevel(levels, '105.5')).toBe(3);
    expect(nearestLevel(levels, '105')).toBe(2);
    expect(nearestLevel(levels, '104')).toBe(2);
    expect(nearestLevel(levels, '120')).toBe(5);
    expect(nearestLevel(levels, '90')).toBe(0);
  });

  it('rounds a level to where the engine rests it: buys down, sells up to the tick', () => {
    const odd = gridLevels('100', '101', 4); // 100, 100.333…, 100.666…, 101
    expect(restingPrice(odd[1]!, 'buy', '0.1')).toBe('100.3');
    expect(restingPrice(odd[1]!, 'sell', '0.1')).toBe('100.4');
    expect(restingPrice(odd[1]!, 'buy', undefined)).toBe(odd[1]);
  });

  it("finds a filled order's level by its side and resting price, and none for a price off the ladder", () => {
    const odd = gridLevels('100', '101', 4);
    expect(levelOfOrder(odd, { side: 'buy', price: '100.3' }, '0.1')).toBe(1);
    expect(levelOfOrder(odd, { side: 'sell', price: '100.4' }, '0.1')).toBe(1);
    expect(levelOfOrder(odd, { side: 'sell', price: '100.3' }, '0.1')).toBeUndefined();
    expect(levelOfOrder(levels, { side: 'buy', price: '106' }, '0.1')).toBe(3);
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
