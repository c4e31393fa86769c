import Database from 'better-sqlite3';
import {
  chmodSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../src/core/perpbotError.js';
import { preflightJournalFile } from '../../src/journal/journalFileChecks.js';
import { journalOpenError } from '../../src/journal/journalOpenError.js';
import { openJournal } from '../../src/journal/openJournal.js';

function refusal(run: () => unknown): { code: string; message: string; hints: readonly string[] } {
  try {
    run();
  } catch (error) {
    if (isPerpbotError(error)) return { code: error.code, message: error.message, hints: error.hints };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A journal with enough rows to span several pages, closed (its WAL checkpointed into the file). */
function writtenJournal(path: string): void {
  const journal = openJournal(path);
  journal.close();
  const db = new Database(path);
  const insert = db.prepare('INSERT INTO balances (account, balance, source, at_ms) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(`0x${'ab'.repeat(20)}`, `${i}.5`, 'reconcile', i);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

describe('the journal checks itself when it opens', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-check-journal-'));
    path = join(dir, 'journal.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a file whose pages were damaged between runs, with the next step', () => {
    writtenJournal(path);
    const size = statSync(path).size;
    // Garbage over a page in the middle of the balances table.
    overwrite(path, Math.floor(size / 2 / 4096) * 4096 + 100, Buffer.alloc(2000, 0xa5));
    const error = refusal(() => openJournal(path));
    expect(error.code).toBe('JOURNAL_CORRUPT');
    expect(error.message).toContain(`the journal ${path}`);
    expect(error.hints.join(' ')).toContain(`mv ${path} ${path}.damaged`);
  });

  it('refuses a file that is not a database at all', () => {
    writtenJournal(path);
    overwrite(path, 0, Buffer.from('this is not sqlite, just text.'));
    const error = refusal(() => openJournal(path));
    expect(error.code).toBe('JOURNAL_CORRUPT');
    expect(error.message).toMatch(/damaged or not a perpbot journal \(SQLITE_NOTADB\)/);
  });

  it('refuses a journal whose tables another program removed, though its version is current', () => {
    writtenJournal(path);
    const db = new Database(path);
    db.exec('DROP TABLE fill_gaps');
    db.close();
    expect(refusal(() => openJournal(path))).toMatchObject({
      code: 'JOURNAL_CORRUPT',
      message: `the journal ${path} has no table fill_gaps, which its schema version promises`,
    });
  });

  it('opens a sound journal again, any number of times', () => {
    writtenJournal(path);
    for (let i = 0; i < 2; i++) openJournal(path).close();
  });

  it('says a read-only journal is read-only, never a venue problem', () => {
    const sqliteError = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    expect(journalOpenError(path, sqliteError, false)).toMatchObject({ code: 'JOURNAL_READONLY' });
    expect(journalOpenError(path, Object.assign(new Error('x'), { code: 'EROFS' }), false).message).toContain(
      'cannot be written (EROFS): it or its directory is read-only',
    );
    expect(journalOpenError(path, Object.assign(new Error('x'), { code: 'SQLITE_FULL' }), false)).toMatchObject({
      code: 'JOURNAL_FULL',
    });
  });

  it.runIf(process.getuid?.() !== 0)('refuses a journal file without write permission as read-only', () => {
    writtenJournal(path);
    chmodSync(path, 0o444);
    expect(refusal(() => openJournal(path)).code).toBe('JOURNAL_READONLY');
  });

  it('refuses an empty (0-byte) file instead of silently making a fresh journal of it', () => {
    writeFileSync(path, '');
    const error = refusal(() => openJournal(path));
    expect(error).toMatchObject({
      code: 'JOURNAL_CORRUPT',
      message: `the journal ${path} is an empty file (0 bytes), not a journal`,
    });
    expect(error.hints.join(' ')).toContain(`rm ${path}`);
    expect(statSync(path).size).toBe(0);
    expect(() => preflightJournalFile(path)).toThrow(/empty file/);
  });

  it("refuses another program's database and leaves it as it was", () => {
    const db = new Database(path);
    db.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('ada')");
    db.close();
    const before = readFileSync(path);
    expect(() => preflightJournalFile(path)).toThrow(/another program's database \(tables customers/);
    const error = refusal(() => openJournal(path));
    expect(error).toMatchObject({ code: 'JOURNAL_CORRUPT' });
    expect(error.message).toContain("is another program's database (tables customers; no perpbot schema_version)");
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a journal its owner made read-only (0444) as read-only, and leaves its mode alone', () => {
    writtenJournal(path);
    chmodSync(path, 0o444);
    const error = refusal(() => openJournal(path));
    expect(error).toMatchObject({ code: 'JOURNAL_READONLY' });
    expect(error.message).toContain(`the journal ${path} is read-only (mode 0444)`);
    expect(statSync(path).mode & 0o777).toBe(0o444);
    expect(() => preflightJournalFile(path)).toThrow(/read-only \(mode 0444\)/);
  });
});
