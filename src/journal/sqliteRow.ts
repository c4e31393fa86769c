import { JournalError } from './journalError.js';

/** A row as better-sqlite3 hands it back: column name to value, unknown until a column is read. */
export type Row = Readonly<Record<string, unknown>>;

/**
 * The value of a TEXT column. SQLite's TEXT affinity stores a number written there as text, so
 * anything else (a blob, a missing column) means the file is not what the journal wrote: refused
 * with the column's name rather than carried on as "[object Object]" or "undefined".
 */
export function textColumn(row: Row, name: string): string {
  const value = row[name];
  if (typeof value === 'string') return value;
  throw new JournalError(`the journal's column ${name} holds ${describeValue(value)} where text was expected`, {
    code: 'JOURNAL_CORRUPT',
    details: { column: name, type: describeValue(value) },
    hints: ['the journal file may be damaged or written by another program: point journal.path at a copy you trust'],
  });
}

/** The value of a nullable TEXT column; undefined for NULL. */
export function optionalTextColumn(row: Row, name: string): string | undefined {
  return row[name] === null ? undefined : textColumn(row, name);
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (no such column)';
  if (value === null) return 'NULL';
  if (value instanceof Uint8Array) return 'a blob';
  return `a ${typeof value}`;
}
