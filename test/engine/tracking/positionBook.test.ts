import { describe, expect, it } from 'vitest';
import { PositionBook } from '../../../src/engine/tracking/positionBook.js';
import { ReadMarks } from '../../../src/engine/tracking/readMarks.js';
import type { PositionRecord } from '../../../src/venue/schemas/wsFramesPrivate.js';

function position(marketId: number, size: string, extra: Partial<PositionRecord> = {}): PositionRecord {
  return { market_id: marketId, size, ...extra };
}

describe('PositionBook', () => {
  it('keeps the absolute size with its side (a signed size or the side field), and drops a flat position', () => {
    const book = new PositionBook();
    book.onPositions([position(1, '-0.5'), position(2, '2', { avg_entry_price: '100' }), position(3, '1')]);
    expect(book.position(1)).toEqual({ marketId: 1, side: 'sell', size: '0.5' });
    expect(book.position(2)).toEqual({ marketId: 2, side: 'buy', size: '2', avgEntryPrice: '100' });
    book.onPositions([position(3, '0.000')]);
    expect(book.position(3)).toBeUndefined();
    expect(book.all().map((p) => p.marketId)).toEqual([1, 2]);
  });

  it('reads the margin mode from numbers or strings, and keeps it for a market that went flat', () => {
    const book = new PositionBook();
    book.onPositions([position(1, '1', { margin_mode: 1 }), position(2, '1', { margin_mode: '0' })]);
    expect(book.position(1)?.marginMode).toBe('isolated');
    book.onPositions([position(1, '0', { margin_mode: '1' })]);
    book.setMarginMode(3, 'isolated');
    expect(book.marginModesNow()).toEqual(
      new Map([
        [1, 'isolated'],
        [2, 'cross'],
        [3, 'isolated'],
      ]),
    );
  });

  it('a read applies what the feed has not set since the read began: positions by market, and the balance', () => {
    const marks = new ReadMarks();
    const book = new PositionBook(marks);
    book.onPositions([position(1, '1'), position(2, '3')]);
    book.onBalance('100');
    const readFrom = marks.now();
    // While the read is on its way, the feed reports a fill in market 1 and the balance it left.
    book.onPositions([position(1, '2')]);
    book.onBalance('99.5');
    book.onPositions([position(1, '1'), position(2, '4')], readFrom);
    book.onBalance('100', readFrom);
    expect(book.position(1)?.size).toBe('2');
    expect(book.position(2)?.size).toBe('4');
    expect(book.balance).toBe('99.5');
    // A read begun after the feed's last word applies whole.
    const later = marks.now();
    book.onPositions([position(1, '0')], later);
    book.onBalance('98', later);
    expect(book.position(1)).toBeUndefined();
    expect(book.balance).toBe('98');
  });

  it('hands out copies for a decision, so a later feed does not change what was judged', () => {
    const book = new PositionBook();
    book.onPositions([position(1, '1')]);
    const judged = book.positionsNow();
    book.onPositions([position(1, '0')]);
    expect(judged.get(1)?.size).toBe('1');
    expect(book.positionsNow().size).toBe(0);
  });

  it('shares one copy between decisions until the positions or a margin mode change', () => {
    const book = new PositionBook();
    book.onPositions([position(1, '1', { margin_mode: 0 })]);
    const positions = book.positionsNow();
    const modes = book.marginModesNow();
    expect(book.positionsNow()).toBe(positions);
    expect(book.marginModesNow()).toBe(modes);

    book.setMarginMode(1, 'isolated');
    expect(book.positionsNow()).toBe(positions);
    expect(modes.get(1)).toBe('cross');
    expect(book.marginModesNow().get(1)).toBe('isolated');

    book.onPositions([position(1, '2')]);
    expect(positions.get(1)?.size).toBe('1');
    expect(book.positionsNow().get(1)?.size).toBe('2');
  });
});
