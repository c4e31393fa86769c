import { JournalError } from './journalError.js';
import { damagedJournalHints } from './checkJournal.js';

/**
 * What an open or a first write of the journal failed on, said as what it is: read-only (a file or
 * file system that refuses writes), damaged (not a database, or corrupt), full, or else unopenable.
 * Never a venue problem: the journal is local.
 */
export function journalOpenError(path: string, error: unknown, readonly: boolean): JournalError {
  if (error instanceof JournalError) return error;
  const code = errorCode(error);
  if (/^SQLITE_READONLY|^EROFS$|^EACCES$|^EPERM$/.test(code))
    return new JournalError(`the journal ${path} cannot be written (${code}): it or its directory is read-only`, {
      code: 'JOURNAL_READONLY',
      details: { path, reason: code },
      hints: [
        `check the file's and its directory's permissions (ls -l ${path}) and that the file system is mounted read-write`,
        'a bot writes every nonce and order before sending it: it cannot run on a read-only journal; `perpbot history` reads one',
      ],
      cause: error,
    });
  if (/^SQLITE_(NOTADB|CORRUPT)/.test(code))
    return new JournalError(`the journal ${path} is damaged or not a perpbot journal (${code})`, {
      code: 'JOURNAL_CORRUPT',
      details: { path, reason: code },
      hints: damagedJournalHints(path),
      cause: error,
    });
  if (/^SQLITE_FULL$|^ENOSPC$/.test(code))
    return new JournalError(`the journal ${path} cannot grow: the disk is full (${code})`, {
      code: 'JOURNAL_FULL',
      details: { path, reason: code },
      hints: ["free space on the journal's file system (df -h), then start again"],
      cause: error,
    });
  return new JournalError(`cannot open the journal ${path}${code === '' ? '' : ` (${code})`}`, {
    code: 'JOURNAL_OPEN',
    details: { path },
    hints: readonly
      ? ['run the bot once to create it, or check journal.path in the config']
      : ['check that the directory of journal.path is writable'],
    cause: error,
  });
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
}
