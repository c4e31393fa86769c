import { lstatSync } from 'node:fs';
import type { Logger } from '../core/logger.js';

/** The environment variable naming the drill's switch file. */
export const JOURNAL_FAULT_FILE_ENV = 'PERPBOT_JOURNAL_FAULT_FILE';

/**
 * A full-disk drill for operators and tests: with `PERPBOT_JOURNAL_FAULT_FILE=<path>` set, every
 * journal write fails as on a full disk (SQLITE_FULL) while a file exists at that path, and works
 * again once it is removed. A real full disk cannot be made on demand (SQLite reuses the space of
 * its write-ahead log), and this is how the bot's answer to one is rehearsed: opening stops,
 * cancels and closes go on, records are kept and written back. Unset: no check at all.
 *
 * Armed, it is said at warn when the bot starts (a drill left set in a service's environment must
 * not go unseen), and only a switch file owned by the bot's own user counts: in a shared or
 * world-writable directory another user's file at that path does not stop the bot opening.
 */
export function journalWriteFault(
  env: Readonly<Record<string, string | undefined>>,
  log?: Pick<Logger, 'warn'>,
): (() => string | undefined) | undefined {
  const path = env[JOURNAL_FAULT_FILE_ENV];
  if (path === undefined || path === '') return undefined;
  log?.warn(
    { [JOURNAL_FAULT_FILE_ENV]: path },
    `full-disk drill armed: while ${path} exists (owned by this user), every journal write fails as on a full disk and opening stops; unset ${JOURNAL_FAULT_FILE_ENV} outside a rehearsal`,
  );
  const uid = process.getuid?.();
  return () => {
    try {
      const stat = lstatSync(path);
      return uid === undefined || stat.uid === uid ? `${JOURNAL_FAULT_FILE_ENV} ${path} exists` : undefined;
    } catch {
      return undefined;
    }
  };
}
