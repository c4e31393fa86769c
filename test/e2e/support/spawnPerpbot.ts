import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'perpbot.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The real CLI (bin/perpbot.js) in a child process from the repository, as a user runs it, with
 * nothing of the caller's perpbot environment leaking in (keys, URLs, acknowledgements).
 */
export function spawnPerpbot(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 45_000,
): Promise<CliRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: REPO_ROOT, env: { ...base, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
      },
    );
  });
}
