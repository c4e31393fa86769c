import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/openJournal.js';
import { journalFileProblem, readJournalFileState } from '../../src/journal/journalFileWatch.js';

describe('the journal file watch on a real SQLite file', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const journalPath = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'perpbot-file-watch-'));
    dirs.push(dir);
    return join(dir, 'journal.sqlite');
  };

  it('reads an opened journal as a SQLite file and sees nothing wrong while it is left alone', () => {
    const path = journalPath();
    const journal = openJournal(path);
    const opened = readJournalFileState(path);
    expect(opened?.sqliteHeader).toBe(true);
    expect(opened?.size).toBeGreaterThan(0);
    journal.beginRun('0x00000000000000000000000000000000000000aa', 'run-1', 1);
    expect(journalFileProblem(opened, undefined, readJournalFileState(path))).toBeUndefined();
    journal.close();
  });

  it('reports a truncated journal, with the next step', () => {
    const path = journalPath();
    const journal = openJournal(path);
    const opened = readJournalFileState(path);
    truncateSync(path, 100);
    const problem = journalFileProblem(opened, undefined, readJournalFileState(path));
    expect(problem).toMatch(/^the journal file was truncated \(100 bytes, was \d+\)/);
    journal.close();
  });

  it('reports a journal overwritten with other bytes, and a removed one', () => {
    const path = journalPath();
    const journal = openJournal(path);
    const opened = readJournalFileState(path);
    const size = opened?.size ?? 0;
    writeFileSync(path, Buffer.alloc(size, 0x41), { flag: 'r+' });
    expect(readJournalFileState(path)?.sqliteHeader).toBe(false);
    expect(journalFileProblem(opened, undefined, readJournalFileState(path))).toContain('SQLite header is gone');
    rmSync(path);
    expect(journalFileProblem(opened, undefined, readJournalFileState(path))).toBe('the journal file was removed');
    journal.close();
  });
});
