import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Journal } from './journal.js';
import { JournalError } from './journalError.js';
import { migrate } from './journalMigrations.js';

export interface OpenJournalOptions {
  /** Open an existing journal read-only (the CLI's `history`); never creates or migrates. */
  readonly readonly?: boolean;
}

/**
 * Opens (creating the directory and the file when needed) and migrates the journal.
 *
 * Durability: WAL with `synchronous = FULL` fsyncs the log at every commit, so a write that
 * returned survives `kill -9` and also a power loss or OS crash. (NORMAL would survive `kill -9`
 * too, since a committed WAL frame is in the OS cache, but could lose the last commits on power
 * loss; a lost nonce record could then be reused, so FULL it is.) `busy_timeout` lets the CLI read
 * while a bot writes.
 */
export function openJournal(path: string, options: OpenJournalOptions = {}): Journal {
  let db: Database.Database;
  try {
    if (options.readonly !== true && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, options.readonly === true ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    throw new JournalError(`cannot open the journal ${path}`, {
      code: 'JOURNAL_OPEN',
      details: { path },
      hints:
        options.readonly === true
          ? ['run the bot once to create it, or check journal.path in the config']
          : ['check that the directory of journal.path is writable'],
      cause: error,
    });
  }
  try {
    db.pragma('busy_timeout = 5000');
    if (options.readonly !== true) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      migrate(db, path);
    }
  } catch (error) {
    db.close();
    if (error instanceof JournalError) throw error;
    throw new JournalError(`cannot prepare the journal ${path}`, {
      code: 'JOURNAL_OPEN',
      details: { path },
      hints: ['is it a perpbot journal (SQLite) file?'],
      cause: error,
    });
  }
  return new Journal(db, path);
}
