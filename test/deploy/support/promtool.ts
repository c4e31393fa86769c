import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Debian's promtool (package `prometheus`, which `.ci/run` installs as it installs chromium). A
 * test that needs it fails with this hint instead of passing without it.
 */
export const PROMTOOL = '/usr/bin/promtool';
export const PROMETHEUS = '/usr/bin/prometheus';
/** Debian's amtool (package `prometheus-alertmanager`). */
export const AMTOOL = '/usr/bin/amtool';

export function requireBinary(path: string, pkg: string): void {
  if (!existsSync(path))
    throw new Error(`${path} is missing: install Debian's ${pkg} (apt-get install -y ${pkg}), as .ci/run does`);
}

export interface ToolRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs promtool with `args`, `input` on its stdin; resolves with its exit code and output. */
export function promtool(args: readonly string[], input?: string): Promise<ToolRun> {
  requireBinary(PROMTOOL, 'prometheus');
  return run(PROMTOOL, args, input);
}

/** Runs amtool with `args`. */
export function amtool(args: readonly string[]): Promise<ToolRun> {
  requireBinary(AMTOOL, 'prometheus-alertmanager');
  return run(AMTOOL, args);
}

function run(binary: string, args: readonly string[], input?: string): Promise<ToolRun> {
  return new Promise((done) => {
    const child = execFile(binary, [...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}
