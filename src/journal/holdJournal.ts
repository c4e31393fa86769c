import type { Logger } from '../core/logger.js';
import { preflightJournalFile } from './journalFileChecks.js';
import { acquireJournalLock, type JournalLock } from './journalLock.js';

/**
 * The bot's journal lock, saying in the log when it took over a lock a killed bot left behind;
 * then, before anything touches the venue, the file is looked at (empty, read-only, another
 * program's database: see `preflightJournalFile`).
 */
export function holdJournal(journalPath: string, command: string, logger: Pick<Logger, 'warn'>): JournalLock {
  const lock = acquireJournalLock(journalPath, command);
  try {
    preflightJournalFile(journalPath);
  } catch (error) {
    lock.release();
    throw error;
  }
  const previous = lock.tookOverFrom;
  if (previous !== undefined)
    logger.warn(
      { journal: journalPath, previousPid: previous.pid, previousCommand: previous.command, since: previous.since },
      'took over the journal lock of a process that ended without releasing it (killed?); reconciling with the venue',
    );
  return lock;
}
