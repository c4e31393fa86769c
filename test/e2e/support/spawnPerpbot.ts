import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
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

/** A CLI process that keeps running: its output so far and its exit. */
export interface RunningPerpbot {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

// The CLI's own process (bin/perpbot.js in a checkout runs it as a child): the pid a lock names and kill -9 hits.
const MAIN = join(REPO_ROOT, 'src', 'runtime', 'cli', 'main.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The real CLI started in `cwd` (strategy paths are relative to it), left running. */
export function startPerpbotIn(args: readonly string[], cwd: string, env: Record<string, string>): RunningPerpbot {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, env: { ...base, ...env } });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}
