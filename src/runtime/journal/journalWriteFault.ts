import { existsSync } from 'node:fs';

/** The environment variable naming the drill's switch file. */
export const JOURNAL_FAULT_FILE_ENV = 'PERPBOT_JOURNAL_FAULT_FILE';

/**
 * A full-disk drill for operators and tests: with `PERPBOT_JOURNAL_FAULT_FILE=<path>` set, every
 * journal write fails as on a full disk (SQLITE_FULL) while a file exists at that path, and works
 * again once it is removed. A real full disk cannot be made on demand (SQLite reuses the space of
 * its write-ahead log), and this is how the bot's answer to one is rehearsed: opening stops,
 * cancels and closes go on, records are kept and written back. Unset: no check at all.
 */
export function journalWriteFault(
  env: Readonly<Record<string, string | undefined>>,
): (() => string | undefined) | undefined {
  const path = env[JOURNAL_FAULT_FILE_ENV];
  if (path === undefined || path === '') return undefined;
  return () => (existsSync(path) ? `${JOURNAL_FAULT_FILE_ENV} ${path} exists` : undefined);
}
