import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Journal } from './journal.js';
import { checkJournalIntegrity, checkJournalSchema, refuseForeignDatabase } from './checkJournal.js';
import { readOnlyFile, refuseUnusableJournalFile } from './journalFileChecks.js';
import { journalOpenError } from './journalOpenError.js';
import { migrate } from './journalMigrations.js';

export interface OpenJournalOptions {
  /** Open an existing journal read-only (the CLI's `history`); never creates or migrates. */
  readonly readonly?: boolean;
  /** While it answers a reason, every write fails as on a full disk (`journalWriteFault`). */
  readonly writeFault?: () => string | undefined;
}

/**
 * Opens (creating the directory and the file when needed) and migrates the journal.
 *
 * Durability: WAL with `synchronous = FULL` fsyncs the log at every commit, so a write that
 * returned survives `kill -9` and also a power loss or OS crash. (NORMAL would survive `kill -9`
 * too, since a committed WAL frame is in the OS cache, but could lose the last commits on power
 * loss; a lost nonce record could then be reused, so FULL it is.) `busy_timeout` lets the CLI read
 * while a bot writes.
 *
 * A writable journal checks itself first (an empty or read-only file, SQLite's quick_check, another
 * program's database, then the schema after migrating): a file damaged between runs is refused at
 * start with the next step, and a read-only one is said to be read-only (never made writable
 * again behind its owner's back).
 */
export function openJournal(path: string, options: OpenJournalOptions = {}): Journal {
  const readonly = options.readonly === true;
  let db: Database.Database;
  try {
    if (!readonly && path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      refuseUnusableJournalFile(path);
    }
    db = new Database(path, readonly ? { readonly: true, fileMustExist: true } : {});
    if (!readonly && db.readonly) {
      db.close();
      throw readOnlyFile(path, undefined);
    }
    // Before WAL mode: SQLite gives the -wal and -shm files the database file's permissions.
    if (!readonly && path !== ':memory:') chmodSync(path, 0o600);
  } catch (error) {
    throw journalOpenError(path, error, readonly);
  }
  try {
    db.pragma('busy_timeout = 5000');
    if (!readonly) {
      checkJournalIntegrity(db, path);
      refuseForeignDatabase(db, path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      migrate(db, path);
      checkJournalSchema(db, path);
    }
  } catch (error) {
    db.close();
    throw journalOpenError(path, error, readonly);
  }
  return new Journal(db, path, options.writeFault);
}
