import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { JournalError } from './journalError.js';
import { realJournalPath } from './journalIdentity.js';
import { readLockHolder, removeLockHolder, writeLockHolder, type JournalLockHolder } from './journalLockHolder.js';

/** The journal held by this process alone: see `acquireJournalLock`. */
export interface JournalLock {
  readonly journalPath: string;
  /** The holder a previous process left behind without releasing (a `kill -9`), when this lock took over. */
  readonly tookOverFrom?: JournalLockHolder;
  /** Gives the journal up; safe to call more than once. */
  release(): void;
}

const NO_LOCK: JournalLock = { journalPath: ':memory:', release: () => undefined };

/** Locks this process holds, by journal path, with how many holders share each. */
const held = new Map<string, { count: number; lock: JournalLock }>();

/**
 * Takes the journal (and so its account's nonces and the bot's control file) for this process
 * alone, before anything touches the venue: two bots on one journal take each other's orders as
 * their own and move each other's nonce anchor. The lock is SQLite's exclusive lock on a file
 * beside the journal, an OS (fcntl) lock the kernel drops when its process dies, so a lock left by
 * a `kill -9` is free again at once and never has to be guessed stale from a pid or a clock; the
 * pid file beside it only names the holder. Throws `JOURNAL_LOCKED` naming the holder.
 *
 * The lock is the file's, not the name's: it is taken beside the journal's real path, so a symlink
 * to a running bot's journal (or to its directory) meets that bot's lock, and a journal with a
 * second hard link is refused (`JOURNAL_LINKED`, see journalIdentity.ts).
 *
 * Re-entrant within one process: `perpbot start` takes it first, and the steps it runs (the
 * embedded simulator's account setup, `runBot`) take it again; each holder releases its own.
 */
export function acquireJournalLock(journalPath: string, command: string, now: () => number = Date.now): JournalLock {
  if (journalPath === ':memory:') return NO_LOCK;
  const path = realJournalPath(journalPath);
  const mine = held.get(path);
  if (mine !== undefined) {
    mine.count++;
    return shared(mine, false);
  }
  const entry = { count: 1, lock: takeLock(path, command, now) };
  held.set(path, entry);
  return shared(entry, true);
}

/** A holder's handle; only the first holder hears of a take-over (it is said once). */
function shared(entry: { count: number; lock: JournalLock }, first: boolean): JournalLock {
  let released = false;
  const { tookOverFrom } = entry.lock;
  return {
    journalPath: entry.lock.journalPath,
    ...(first && tookOverFrom !== undefined ? { tookOverFrom } : {}),
    release() {
      if (released) return;
      released = true;
      if (--entry.count > 0) return;
      held.delete(entry.lock.journalPath);
      entry.lock.release();
    },
  };
}

function takeLock(journalPath: string, command: string, now: () => number): JournalLock {
  const lockPath = `${journalPath}.lock`;
  mkdirSync(dirname(journalPath), { recursive: true, mode: 0o700 });
  // timeout 0: a held lock is refused at once, not after better-sqlite3's default 5 s wait.
  const db = new Database(lockPath, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    throw lockedError(journalPath, readLockHolder(lockPath), error);
  }
  chmodSync(lockPath, 0o600);
  const previous = readLockHolder(lockPath);
  writeLockHolder(lockPath, { pid: process.pid, command, since: new Date(now()).toISOString() });
  return {
    journalPath,
    ...(previous !== undefined && previous.pid !== process.pid ? { tookOverFrom: previous } : {}),
    release() {
      removeLockHolder(lockPath, process.pid);
      db.close();
    },
  };
}

function lockedError(journalPath: string, holder: JournalLockHolder | undefined, cause: unknown): JournalError {
  const who =
    holder === undefined
      ? 'another process (it left no pid file)'
      : `perpbot pid ${holder.pid} (${holder.command}, since ${holder.since})`;
  return new JournalError(`the journal ${journalPath} is in use by ${who}`, {
    code: 'JOURNAL_LOCKED',
    details: {
      path: journalPath,
      ...(holder === undefined ? {} : { holderPid: holder.pid, holderCommand: holder.command }),
    },
    hints: [
      holder === undefined
        ? 'stop the other bot or command that uses this journal first'
        : `stop it first: kill ${holder.pid} (SIGTERM stops a bot gracefully, per shutdown.open_orders)`,
      'or give this one its own journal.path: one journal per bot and account',
      "to cancel a running bot's orders, trip its kill switch (POST /api/kill-switch) or stop it: it cancels on the way out",
    ],
    cause,
  });
}
