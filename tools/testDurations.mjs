#!/usr/bin/env node
// Writes tools/testDurations.json, the sequencer's hint for a run without vitest's cache (CI's
// clean clone), from a vitest JSON report: `npx vitest run --reporter=json --outputFile=r.json`,
// then `node tools/testDurations.mjs r.json`. Only the files of 2 s or more are kept: the rest
// are short enough that their order does not matter.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './heldBackRun.mjs';

const [reportPath] = process.argv.slice(2);
if (reportPath === undefined) {
  process.stderr.write('usage: node tools/testDurations.mjs VITEST_JSON_REPORT\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round(file.endTime - file.startTime)])
    .filter(([, ms]) => ms >= 2_000)
    .sort(([, a], [, b]) => b - a),
);
writeFileSync(join(root, 'tools', 'testDurations.json'), `${JSON.stringify(durations, null, 2)}\n`);
process.stdout.write(`${Object.keys(durations).length} files of 2 s or more written to tools/testDurations.json\n`);
