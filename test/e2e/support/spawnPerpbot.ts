import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { inject } from 'vitest';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The real CLI in a child process from the repository, compiled as the installed package runs it
 * (test/e2e/support/compiledCli.ts), with nothing of the caller's perpbot environment leaking in
 * (keys, URLs, acknowledgements).
 */
export function spawnPerpbot(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 45_000,
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...nodeArgs, inject('perpbotMain'), ...args],
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

/** The real CLI started in `cwd` (strategy paths are relative to it), left running; `nodeArgs` go to node. */
export function startPerpbotIn(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): RunningPerpbot {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  // The CLI's own process, the pid a lock names and kill -9 hits.
  const child = spawn(process.execPath, [...nodeArgs, inject('perpbotMain'), ...args], {
    cwd,
    env: { ...base, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

/**
 * Node arguments that run the CLI with `--expose-gc` and a full garbage collection every 100 ms:
 * what a long run does to anything held only weakly (a lost timer shows within a second).
 */
export const GC_EVERY_100_MS: readonly string[] = [
  '--expose-gc',
  '--import',
  'data:text/javascript,setInterval(() => globalThis.gc(), 100).unref();',
];
