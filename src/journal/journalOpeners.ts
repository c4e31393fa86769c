import { readdirSync, readlinkSync, statSync, type Stats } from 'node:fs';

/** A process that has a file open, and the name it opened it by. */
export interface Opener {
  readonly pid: number;
  readonly path: string;
}

/** More than this many descriptors are not looked through (a refusal's hint, never worth a long scan). */
const MAX_DESCRIPTORS = 20_000;

/**
 * The other processes of this user that have `file` open (as `fuser` finds them: through
 * /proc/PID/fd), with the name each used. Only to name a holder in a refusal: empty where /proc is
 * missing (not Linux) or another user's processes cannot be read; the refusal stands either way.
 */
export function openersOf(path: string, file: Pick<Stats, 'dev' | 'ino'> = statSync(path)): Opener[] {
  const openers: Opener[] = [];
  let budget = MAX_DESCRIPTORS;
  for (const pid of processIds()) {
    if (pid === process.pid) continue;
    for (const fd of listOrEmpty(`/proc/${pid}/fd`)) {
      if (--budget < 0) return openers;
      const name = sameFile(`/proc/${pid}/fd/${fd}`, file);
      if (name === undefined) continue;
      openers.push({ pid, path: name });
      break;
    }
  }
  return openers;
}

function processIds(): number[] {
  return listOrEmpty('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function sameFile(link: string, file: Pick<Stats, 'dev' | 'ino'>): string | undefined {
  try {
    const stat = statSync(link);
    return stat.ino === file.ino && stat.dev === file.dev ? readlinkSync(link) : undefined;
  } catch {
    return undefined;
  }
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
