import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import Database from 'better-sqlite3';
import { JournalError } from './journalError.js';
import { refuseForeignDatabase } from './checkJournal.js';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * What can be said of the file at the journal's path before SQLite opens it: a 0-byte file (a
 * journal cut to nothing, or a placeholder) is not a fresh journal, since SQLite would silently
 * make one of it and the nonces and orders it held would be forgotten; a file its owner made
 * read-only is refused as such (SQLite would open it read-only without a word, and the first
 * write would fail far from the cause). A missing file is fine: the journal is created.
 */
export function refuseUnusableJournalFile(path: string): void {
  const stat = statOrUndefined(path);
  if (stat === undefined) return;
  if (!stat.isFile())
    throw new JournalError(`the journal ${path} is not a regular file`, {
      code: 'JOURNAL_OPEN',
      details: { path },
      hints: ['point journal.path at a file (it is created when missing)'],
    });
  if ((stat.mode & 0o200) === 0) throw readOnlyFile(path, stat.mode);
  if (stat.size === 0 && (statOrUndefined(`${path}-wal`)?.size ?? 0) === 0)
    throw new JournalError(`the journal ${path} is an empty file (0 bytes), not a journal`, {
      code: 'JOURNAL_CORRUPT',
      details: { path, size: 0 },
      hints: [
        `if it held a journal, restore it from a backup (with its -wal file)`,
        `if you mean a fresh journal, remove it (rm ${path}): the bot creates one, and reads open orders, positions and nonces back from the venue`,
      ],
    });
}

/** SQLite opened a file it could not write read-only, without an error: said here as what it is. */
export function readOnlyFile(path: string, mode: number | undefined): JournalError {
  const octal = mode === undefined ? '' : ` (mode 0${(mode & 0o777).toString(8)})`;
  return new JournalError(
    `the journal ${path} is read-only${octal}: a bot writes every nonce and order before it sends it`,
    {
      code: 'JOURNAL_READONLY',
      details: { path, ...(mode === undefined ? {} : { mode: `0${(mode & 0o777).toString(8)}` }) },
      hints: [
        `if it was made read-only to keep it (a finished run's history), give this bot another journal.path; \`perpbot history\` reads it as it is`,
        `otherwise let its owner write it again: chmod 600 ${path}`,
      ],
    },
  );
}

/**
 * Before `perpbot start` touches the venue: the checks `openJournal` makes of the file, and
 * whether it is another program's database, on a read-only connection that changes nothing.
 * What it cannot open is left to `openJournal`, which says why.
 */
export function preflightJournalFile(path: string): void {
  refuseUnusableJournalFile(path);
  if (!startsWithSqliteHeader(path)) return;
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return;
  }
  try {
    refuseForeignDatabase(db, path);
  } catch (error) {
    if (error instanceof JournalError) throw error;
  } finally {
    db.close();
  }
}

function startsWithSqliteHeader(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(SQLITE_HEADER.length);
      return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
