import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * How perpbot writes a file of its own: readable by its owner only (0600), in a directory it
 * creates readable by its owner only (0700), and never through a symlink. A whole file is written
 * to a fresh temporary name (created exclusively, so a symlink or file planted at that name is
 * refused, not followed) and renamed over the target (a rename replaces a symlink at the target
 * instead of writing where it points). An append opens with O_NOFOLLOW.
 */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** O_NOFOLLOW: a symlink at the path is refused (ELOOP), never followed. */
export const APPEND_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW;

function temporaryName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** `data` as the whole of `path`, written whole or not at all. */
export async function writePrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = temporaryName(path);
  const handle = await open(temporary, CREATE_NEW, 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

/** `writePrivateFile`, synchronously (small files written where nothing may wait: a lock's holder). */
export function writePrivateFileSync(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = temporaryName(path);
  const fd = openSync(temporary, CREATE_NEW, 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** Appends `text` to `path` (created 0600 when missing); a symlink at `path` is refused. */
export function appendPrivateFileSync(path: string, text: string): void {
  const fd = openSync(path, APPEND_NO_FOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
