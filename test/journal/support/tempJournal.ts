import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Journal } from '../../../src/journal/journal.js';
import { openJournal } from '../../../src/journal/openJournal.js';

/** The journal of the running test, its file in a directory of its own (`dir`). */
export interface TempJournal {
  readonly journal: Journal;
  readonly dir: string;
}

/**
 * A fresh journal file for every test of the enclosing `describe`, closed and removed after it;
 * `file` is its path inside the test's directory.
 */
export function useTempJournal(prefix: string, file = 'journal.sqlite'): TempJournal {
  let current: { journal: Journal; dir: string } | undefined;
  beforeEach(() => {
    const dir = mkdtempSync(join(tmpdir(), `perpbot-${prefix}-`));
    current = { dir, journal: openJournal(join(dir, file)) };
  });
  afterEach(() => {
    current?.journal.close();
    if (current !== undefined) rmSync(current.dir, { recursive: true, force: true });
    current = undefined;
  });
  const now = () => {
    if (current === undefined) throw new Error('useTempJournal: the journal exists only while a test runs');
    return current;
  };
  return {
    get journal() {
      return now().journal;
    },
    get dir() {
      return now().dir;
    },
  };
}
