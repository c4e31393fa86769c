import { beforeEach, describe, expect, it } from 'vitest';
import { attributeByPosition } from '../../src/journal/attributeByPosition.js';
import { BASE_POSITION_SOURCE } from '../../src/journal/positionBase.js';
import { reconciliationRunOf } from './support/reconciliationRunOf.js';
import { useTempJournal } from './support/tempJournal.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const READ_AT_MS = 3_000;

describe('attributeByPosition', () => {
  const temp = useTempJournal('attribute');
  beforeEach(() => {
    const { journal } = temp;
    journal.recordPosition(ACCOUNT, { marketId: 1, side: 'buy', size: '1' }, BASE_POSITION_SOURCE, 1_000);
    journal.recordFill(ACCOUNT, fillOf('held', 'buy', '0.5'), 'venue', 2_000);
    // Journaled by the live feed after the reconnect's read began.
    journal.recordFill(ACCOUNT, fillOf('late', 'sell', '0.2'), 'venue', READ_AT_MS + 5);
  });

  const judge = (venueSignedSize: string) => {
    const positions = new Map([[1, { marketId: 1, signedSize: venueSignedSize }]]);
    const run = reconciliationRunOf(temp.journal, ACCOUNT, { markets: [1], venue: { positions } }, READ_AT_MS);
    attributeByPosition(run);
    return run.differences;
  };

  it('finds nothing unexplained when the read holds the fills journaled before it, with or without a later one', () => {
    expect(judge('1.5')).toEqual([]);
    expect(judge('1.3')).toEqual([]);
  });

  it('finds nothing unexplained when the read holds fills journaled after it but not one journaled before them', () => {
    // The reconciliation's history read journals fills the channel missed after the live feed's 'late'.
    temp.journal.recordFill(ACCOUNT, fillOf('recovered', 'sell', '0.4'), 'history', READ_AT_MS + 9);
    expect(judge('1.1')).toEqual([]);
    expect(judge('0.9')).toEqual([]);
    expect(judge('1.0')).toEqual([expect.objectContaining({ type: 'position_unexplained', expected: '0.9' })]);
  });

  it('reports a position no count of the journaled fills explains, against everything journaled', () => {
    expect(judge('1.4')).toEqual([
      expect.objectContaining({ type: 'position_unexplained', marketId: 1, expected: '1.3', venue: '1.4' }),
    ]);
    // Without the fill journaled before the read began: the venue held that one.
    expect(judge('1')).toEqual([expect.objectContaining({ type: 'position_unexplained', expected: '1.3' })]);
  });
});

function fillOf(id: string, side: 'buy' | 'sell', size: string) {
  return { id, marketId: 1, orderId: '0xabc', side, price: '100', size };
}
