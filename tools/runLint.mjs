#!/usr/bin/env node
// `npm run lint`: the typecheck, eslint (type-aware), prettier and knip at once; fails if any of them
// fails. They are independent, and one after another they took three times as long. CI runs it after
// `npm test`.
import { reportCheck, runCheck } from './heldBackRun.mjs';

const started = performance.now();
const checked = await Promise.all(['typecheck', 'eslint', 'prettier', 'knip'].map((name) => runCheck(name)));
checked.forEach(reportCheck);
const passed = checked.every((check) => check.ok);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`npm run lint: ${passed ? 'passed' : 'FAILED'} in ${seconds} s\n`);
process.exitCode = passed ? 0 : 1;
