import type { Logger } from '../operations/logging/createLogger.js';
import { acquireJournalLock, type JournalLock } from './journalLock.js';

/** The bot's journal lock, saying in the log when it took over a lock a killed bot left behind. */
export function holdJournal(journalPath: string, command: string, logger: Pick<Logger, 'warn'>): JournalLock {
  const lock = acquireJournalLock(journalPath, command);
  const previous = lock.tookOverFrom;
  if (previous !== undefined)
    logger.warn(
      { journal: journalPath, previousPid: previous.pid, previousCommand: previous.command, since: previous.since },
      'took over the journal lock of a process that ended without releasing it (killed?); reconciling with the venue',
    );
  return lock;
}
