// Runs the checks (the typecheck, eslint, prettier, knip) as child processes with their output held
// back, so several run at once without interleaving, and says what each found once all are done.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache');
export const bin = (name) => join(root, 'node_modules', '.bin', name);

/**
 * Each check keeps its cache under .cache/ (the compiler's build info, eslint's and prettier's
 * caches), so a second run checks only what changed; a clean clone (CI) checks everything.
 */
export const CHECKS = {
  typecheck: [
    bin('tsc'),
    ['--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', join(cache, 'tsc.tsbuildinfo')],
  ],
  eslint: [bin('eslint'), ['.', '--cache', '--cache-strategy', 'content', '--cache-location', join(cache, 'eslint/')]],
  prettier: [bin('prettier'), ['--check', '.', '--cache', '--cache-location', join(cache, 'prettier.json')]],
  knip: [bin('knip'), ['--cache', '--cache-location', join(cache, 'knip')]],
};

/** Runs one check, its output held back until it ends. */
export function runCheck(name) {
  const [command, args] = CHECKS[name];
  mkdirSync(cache, { recursive: true });
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(
        `${ok ? '✓' : '✗'} ${name} (${seconds} s)${ok ? '' : `, exit ${code}: its output follows`}\n`,
      );
      resolve({ name, ok, output: output.trim() });
    });
  });
}

/** What a failed check said, after everything else's output, where it is not lost among it. */
export function reportCheck({ name, ok, output }) {
  if (ok || output === '') return;
  process.stdout.write(`\n✗ ${name}:\n${output}\n`);
}
