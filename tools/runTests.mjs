#!/usr/bin/env node
// `npm test`: vitest, and beside it the typecheck; fails if either fails. The typecheck runs at the
// lowest priority: it takes the CPU the tests leave while their bots and simulators wait on the
// clock, so the tests keep their timing and the typecheck costs little wall time. The lint
// (`npm run lint`: eslint, prettier, knip) is its own command, which CI runs too. Arguments go
// to vitest (`npm test -- test/core`).
import { spawn } from 'node:child_process';
import { bin, reportCheck, root, runCheck } from './heldBackRun.mjs';

/** vitest with its output live: the one step long enough to want to watch. */
function tests(args) {
  return new Promise((resolve) => {
    const child = spawn(bin('vitest'), ['run', ...args], { cwd: root, stdio: 'inherit' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

const started = performance.now();
const [tested, typecheck] = await Promise.all([tests(process.argv.slice(2)), runCheck('typecheck', { nice: 19 })]);
reportCheck(typecheck);
const passed = tested && typecheck.ok;
const seconds = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`npm test: ${passed ? 'passed' : 'FAILED'} in ${seconds} s\n`);
process.exitCode = passed ? 0 : 1;
