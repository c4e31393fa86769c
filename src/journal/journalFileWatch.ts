import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** The next step for a journal cut or overwritten under the bot: commands that exist, in order. */
const AFTER_THE_STOP =
  'after the bot stops, restore it from a backup, or move it aside and start again (the start reads open orders, positions and nonces back from the venue)';

/** What the once-a-second watch reads of the journal file. */
export interface JournalFileState {
  readonly inode: number;
  readonly size: number;
  /** The file starts with SQLite's header ("SQLite format 3\0"). */
  readonly sqliteHeader: boolean;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** The file's state, or undefined when it is gone. */
export function readJournalFileState(path: string): JournalFileState | undefined {
  try {
    const stat = statSync(path);
    return { inode: stat.ino, size: stat.size, sqliteHeader: stat.size === 0 || startsWithHeader(path) };
  } catch {
    return undefined;
  }
}

function startsWithHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/**
 * Why writes to the journal file would be lost or damage it, or undefined while it is the file
 * the bot opened: removed, replaced (another inode), or truncated. A journal in WAL mode never
 * shrinks (no auto_vacuum, checkpoints only write pages back) and always keeps SQLite's header
 * once it has one, so a smaller file or a lost header means someone cut it.
 */
export function journalFileProblem(
  opened: JournalFileState | undefined,
  last: JournalFileState | undefined,
  now: JournalFileState | undefined,
): string | undefined {
  if (opened === undefined) return undefined;
  if (now === undefined) return 'the journal file was removed';
  if (now.inode !== opened.inode) return 'the journal file was replaced';
  const before = last ?? opened;
  if (now.size < before.size)
    return `the journal file was truncated (${now.size} bytes, was ${before.size}); ${AFTER_THE_STOP}`;
  if (before.size > 0 && !now.sqliteHeader)
    return `the journal file was overwritten (its SQLite header is gone); ${AFTER_THE_STOP}`;
  return undefined;
}
