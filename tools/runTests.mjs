#!/usr/bin/env node
// `npm test`: the whole suite (vitest), its output live. The typecheck is a static check like the
// others and runs with them in `npm run lint` (CI runs both): beside the suite it took about 22 s of
// the suite's wall time, its CPU taken from e2e files that were already using both cores.
// Arguments go to vitest (`npm test -- test/core`).
import { spawn } from 'node:child_process';
import { bin, root } from './heldBackRun.mjs';

const started = performance.now();
const passed = await new Promise((resolve) => {
  const child = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  child.on('error', () => resolve(false));
  child.on('close', (code) => resolve(code === 0));
});
const seconds = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`npm test: ${passed ? 'passed' : 'FAILED'} in ${seconds} s\n`);
process.exitCode = passed ? 0 : 1;
