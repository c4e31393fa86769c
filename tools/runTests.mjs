#!/usr/bin/env node
// `npm test`: vitest, and beside it the typecheck, eslint, prettier and knip; fails if any of them
// fails. The checks are independent of the tests and of each other, and run at a low priority:
// they take the CPU the tests leave while their bots and simulators wait on the clock, so the
// tests keep their timing and the checks cost little wall time. Each check keeps its cache under
// .cache/ (the compiler's build info, eslint's and prettier's caches), so a second run checks
// only what changed; a clean clone (CI) checks everything. Arguments go to vitest
// (`npm test -- test/core`).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache');
const bin = (name) => join(root, 'node_modules', '.bin', name);

const checks = [
  [
    'typecheck',
    bin('tsc'),
    ['--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', join(cache, 'tsc.tsbuildinfo')],
  ],
  [
    'eslint',
    bin('eslint'),
    ['.', '--cache', '--cache-strategy', 'content', '--cache-location', join(cache, 'eslint/')],
  ],
  ['prettier', bin('prettier'), ['--check', '.', '--cache', '--cache-location', join(cache, 'prettier.json')]],
  ['knip', bin('knip'), ['--cache', '--cache-location', join(cache, 'knip')]],
];

/** Runs a command with its output held back, so it never interleaves with the tests' output. */
function run(name, command, args) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    lowerPriority(child.pid);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(
        `${ok ? '✓' : '✗'} ${name} (${seconds} s)${ok ? '' : `, exit ${code}: its output follows the tests`}\n`,
      );
      resolve({ name, ok, output: output.trim() });
    });
  });
}

/** What a check said, after the tests' output, where it is not lost among them. */
function report({ name, ok, output }) {
  if (output === '') return;
  process.stdout.write(`\n${ok ? '' : '✗ '}${name}:\n${output}\n`);
}

/** Nice 15: the checks run on what the tests leave of the CPU. Best effort: a platform without it runs them as they are. */
function lowerPriority(pid) {
  if (pid === undefined) return;
  try {
    setPriority(pid, 15);
  } catch {
    // Not permitted or not supported: the checks still run, only at the tests' priority.
  }
}

/** vitest with its output live: the one step long enough to want to watch. */
function tests(args) {
  return new Promise((resolve) => {
    const child = spawn(bin('vitest'), ['run', ...args], { cwd: root, stdio: 'inherit' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

mkdirSync(cache, { recursive: true });
const started = performance.now();
const [tested, ...checked] = await Promise.all([
  tests(process.argv.slice(2)),
  ...checks.map(([name, command, args]) => run(name, command, args)),
]);
checked.forEach(report);
const passed = tested && checked.every((check) => check.ok);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`npm test: ${passed ? 'passed' : 'FAILED'} in ${seconds} s\n`);
process.exitCode = passed ? 0 : 1;
