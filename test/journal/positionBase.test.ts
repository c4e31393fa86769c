import { describe, expect, it } from 'vitest';
import {
  BASE_POSITION_SOURCE,
  expectedPosition,
  journalCountAtRead,
  signedPosition,
} from '../../src/journal/positionBase.js';
import { useTempJournal } from './support/tempJournal.js';

const ACCOUNT = '0x00000000000000000000000000000000000000AA';
const fill = (id: string, side: 'buy' | 'sell', size: string, marketId = 1) => ({
  id,
  marketId,
  orderId: '0xabc',
  side,
  price: '100',
  size,
});

describe('signedPosition', () => {
  it('makes a short negative and leaves a long or a flat position as it is', () => {
    expect(signedPosition('sell', '0.5')).toBe('-0.5');
    expect(signedPosition('buy', '0.5')).toBe('0.5');
    expect(signedPosition('sell', '0')).toBe('0');
    expect(signedPosition('sell', '0.000')).toBe('0.000');
  });
});

describe('expectedPosition', () => {
  const temp = useTempJournal('position-base');

  it('is undefined while the market has no base snapshot (a snapshot of another source is no base)', () => {
    temp.journal.recordPosition(ACCOUNT, { marketId: 1, side: 'buy', size: '1' }, 'positions', 1_000);
    expect(expectedPosition(temp.journal, ACCOUNT, 1)).toBeUndefined();
  });

  it('is the latest base plus the fills of its market journaled after it, signed', () => {
    temp.journal.recordFill(ACCOUNT, fill('before', 'buy', '5'), 'venue', 1_000);
    temp.journal.recordPosition(ACCOUNT, { marketId: 1, side: 'sell', size: '0.5' }, BASE_POSITION_SOURCE, 2_000);
    temp.journal.recordFill(ACCOUNT, fill('f1', 'buy', '0.2'), 'venue', 3_000);
    temp.journal.recordFill(ACCOUNT, fill('f2', 'sell', '0.1'), 'history', 3_001);
    temp.journal.recordFill(ACCOUNT, fill('other-market', 'buy', '7', 2), 'venue', 3_002);
    expect(expectedPosition(temp.journal, ACCOUNT, 1)).toBe('-0.4');
    expect(expectedPosition(temp.journal, ACCOUNT, 2)).toBeUndefined();
  });

  it("counts the fills journaled by a read's start, and lists those journaled since", () => {
    temp.journal.recordPosition(ACCOUNT, { marketId: 1, side: 'buy', size: '1' }, BASE_POSITION_SOURCE, 1_000);
    temp.journal.recordFill(ACCOUNT, fill('held', 'buy', '0.5'), 'venue', 2_000);
    temp.journal.recordFill(ACCOUNT, fill('late-1', 'sell', '0.2'), 'venue', 3_001);
    temp.journal.recordFill(ACCOUNT, fill('late-2', 'sell', '0.3'), 'venue', 3_002);
    // read at 3_000: the venue held the base and 'held'; maybe late-1, late-2, both or neither
    const later = [
      { fillId: 'late-1', signedSize: '-0.2' },
      { fillId: 'late-2', signedSize: '-0.3' },
    ];
    expect(journalCountAtRead(temp.journal, ACCOUNT, 1, 3_000)).toEqual({ atRead: '1.5', later });
    expect(journalCountAtRead(temp.journal, ACCOUNT, 1, 5_000)).toEqual({ atRead: '1', later: [] });
    expect(journalCountAtRead(temp.journal, ACCOUNT, 1, 1_500)).toEqual({
      atRead: '1',
      later: [{ fillId: 'held', signedSize: '0.5' }, ...later],
    });
    expect(journalCountAtRead(temp.journal, ACCOUNT, 2, 3_000)).toBeUndefined();
    expect(expectedPosition(temp.journal, ACCOUNT, 1)).toBe('1');
  });
});
