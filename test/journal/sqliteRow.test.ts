import { describe, expect, it } from 'vitest';
import { JournalError } from '../../src/journal/journalError.js';
import { optionalTextColumn, textColumn } from '../../src/journal/sqliteRow.js';

describe('textColumn / optionalTextColumn', () => {
  it('hands back a TEXT value as it is, and NULL of a nullable column as undefined', () => {
    const row = { size: '0.001', fee: null, empty: '' };
    expect(textColumn(row, 'size')).toBe('0.001');
    expect(textColumn(row, 'empty')).toBe('');
    expect(optionalTextColumn(row, 'fee')).toBeUndefined();
    expect(optionalTextColumn(row, 'size')).toBe('0.001');
  });

  it.each([
    ['a number', { size: 5 }, 'a number'],
    ['a blob', { size: Buffer.from('00', 'hex') }, 'a blob'],
    ['NULL in a column that may not be null', { size: null }, 'NULL'],
    ['a column the row does not have', {}, 'nothing (no such column)'],
  ])('refuses %s with a JournalError naming the column and what it held', (_what, row, held) => {
    let error: unknown;
    try {
      textColumn(row, 'size');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({
      code: 'JOURNAL_CORRUPT',
      message: `the journal's column size holds ${held} where text was expected`,
      details: { column: 'size', type: held },
    });
    expect((error as JournalError).hints[0]).toMatch(/journal\.path/);
  });

  it('refuses a non-text value of a nullable column too', () => {
    expect(() => optionalTextColumn({ fee: 0.01 }, 'fee')).toThrow(/column fee holds a number/);
  });
});
