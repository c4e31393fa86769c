import { readFileSync, unlinkSync } from 'node:fs';
import { writePrivateFileSync } from '../core/privateFiles.js';

/** Who holds a journal: written beside the lock by its holder, read by whoever is refused. */
export interface JournalLockHolder {
  readonly pid: number;
  /** The command that took it (`start`, `reconcile`, `cancel-all`, ...). */
  readonly command: string;
  /** ISO time it was taken. */
  readonly since: string;
}

function holderPath(lockPath: string): string {
  return `${lockPath}.json`;
}

/** The recorded holder, or undefined when none can be read (the lock itself decides, never this file). */
export function readLockHolder(lockPath: string): JournalLockHolder | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(holderPath(lockPath), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { pid, command, since } = parsed as Record<string, unknown>;
    if (!Number.isSafeInteger(pid) || typeof command !== 'string' || typeof since !== 'string') return undefined;
    return { pid: pid as number, command, since };
  } catch {
    return undefined;
  }
}

/** Written whole or not at all, readable by its owner only, never through a symlink (`writePrivateFileSync`). */
export function writeLockHolder(lockPath: string, holder: JournalLockHolder): void {
  writePrivateFileSync(holderPath(lockPath), `${JSON.stringify(holder)}\n`);
}

/** Removes the holder file if it still names `pid` (a later holder's file is left alone). */
export function removeLockHolder(lockPath: string, pid: number): void {
  if (readLockHolder(lockPath)?.pid !== pid) return;
  try {
    unlinkSync(holderPath(lockPath));
  } catch {
    // Already gone: nothing names this process any more, which is all release needs.
  }
}
