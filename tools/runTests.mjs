#!/usr/bin/env node
// `npm test`: the typecheck, eslint, prettier and knip at once, then vitest; fails if any of them
// fails. Run one after another they took as long as the tests themselves, and they are
// independent. Each keeps its cache under .cache/ (the compiler's build info, eslint's and
// prettier's caches), so a second run checks only what changed; a clean clone (CI) checks
// everything. Arguments go to vitest (`npm test -- test/core`).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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

/** Runs a command with its output held back, so parallel outputs never interleave. */
function run(name, command, args) {
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
      process.stdout.write(`${ok ? '✓' : '✗'} ${name} (${seconds} s)${ok ? '' : `, exit ${code}`}\n`);
      if (!ok || output.trim() !== '')
        process.stdout.write(output.endsWith('\n') || output === '' ? output : `${output}\n`);
      resolve(ok);
    });
  });
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
const checked = await Promise.all(checks.map(([name, command, args]) => run(name, command, args)));
const passed = checked.every(Boolean) && (await tests(process.argv.slice(2)));
const seconds = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`npm test: ${passed ? 'passed' : 'FAILED'} in ${seconds} s\n`);
process.exitCode = passed ? 0 : 1;
