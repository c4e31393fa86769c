import { lstatSync, mkdirSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { JournalError } from './journalError.js';
import { readLockHolder } from './journalLockHolder.js';
import { openersOf, type Opener } from './journalOpeners.js';

/**
 * The journal file itself, whatever name it was reached by: its real path (symlinks of the file
 * and of its directories resolved), which the lock is taken beside. A symlink to a running bot's
 * journal so meets that bot's lock. A hard link cannot be resolved to one name, and SQLite keeps
 * a WAL per name (two WALs for one database damage it), so a journal, WAL or shared-memory file
 * with more than one link is refused, naming the process that has the file open under its other
 * name when this machine can see it.
 */
export function realJournalPath(journalPath: string): string {
  const given = resolve(journalPath);
  const dir = dirname(given);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = statOrUndefined(given);
  const real = file === undefined ? resolve(realpathSync(dir), basename(given)) : realOf(given, file);
  for (const path of [real, `${real}-wal`, `${real}-shm`, `${real}.lock`]) refuseLinked(path, given);
  return real;
}

function realOf(given: string, stat: Stats): string {
  if (!stat.isSymbolicLink()) return resolve(realpathSync(dirname(given)), basename(given));
  try {
    return realpathSync(given);
  } catch (error) {
    const target = readlinkSync(given);
    throw new JournalError(`the journal ${given} is a symlink to ${target}, which does not exist`, {
      code: 'JOURNAL_LINKED',
      details: { path: given, target },
      hints: [`point journal.path at the journal file itself, or restore ${target}`],
      cause: error,
    });
  }
}

function refuseLinked(path: string, given: string): void {
  const stat = statOrUndefined(path);
  if (stat === undefined) return;
  if (stat.isSymbolicLink()) throw linkedError(path, given, 'is a symlink', []);
  if (stat.nlink > 1) throw linkedError(path, given, `has ${stat.nlink} hard links`, openersOf(path, stat));
}

function linkedError(path: string, given: string, what: string, openers: readonly Opener[]): JournalError {
  const holder = openers[0];
  const lockHolder = holder === undefined ? undefined : readLockHolder(`${holder.path}.lock`);
  const who =
    holder === undefined
      ? ''
      : `; it is open in ${lockHolder === undefined ? `pid ${holder.pid}` : `perpbot pid ${holder.pid} (${lockHolder.command}, since ${lockHolder.since})`} as ${holder.path}`;
  return new JournalError(
    `the journal file ${path} ${what}: two names for one SQLite file each get a WAL of their own and damage it${who}`,
    {
      code: 'JOURNAL_LINKED',
      details: {
        path,
        journalPath: given,
        ...(holder === undefined ? {} : { holderPid: holder.pid, holderPath: holder.path }),
      },
      hints: [
        ...(holder === undefined ? [] : [`that is another bot's journal: stop it first (kill ${holder.pid}), or`]),
        'give this bot a journal of its own (a copy made while no bot runs, never a link)',
        `or remove the other name: find / -xdev -samefile ${path}`,
      ],
    },
  );
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
