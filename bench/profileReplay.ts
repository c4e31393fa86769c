/**
 * The replay figure's work, measured and profiled: a synthetic recording of `--minutes` (the
 * replay figure's frame rates) replayed with config/default.yaml as `perpbot replay` does, in this
 * process; prints the report's sha256 (docs/benchmarks.md lists the current ones: a change to the
 * replay's speed must leave them as they are), wall and CPU time, and with `--profile` the V8 CPU
 * profile of the replay alone (start-up left out): top functions by self and total time. Not a figure:
 *
 *   node --import tsx bench/profileReplay.ts [--minutes 15] [--profile] [--interval-us 200] [--top 30] [--out <dir>]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadStrategies } from '../src/runtime/bot/wiring/loadStrategies.js';
import { loadConfig } from '../src/runtime/config/loadConfig.js';
import { replayReportText } from '../src/runtime/replay/replayReport.js';
import { printProfileTables, summariseCpuProfile, type CpuProfile } from './lib/cpuProfileSummary.js';
import { synthRecording } from './lib/replay/synthRecording.js';
import { timedReplay } from './lib/replay/timedReplay.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    profile: { type: 'boolean' },
    'interval-us': { type: 'string' },
    top: { type: 'string' },
    out: { type: 'string' },
  },
});
const minutes = Number(values.minutes ?? 15);
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'perpbot-replay-profile-')));
const root = fileURLToPath(new URL('..', import.meta.url));
const rec = join(out, 'rec');
const frames = await synthRecording(rec, minutes / 60, { book: 10, oracle: 5, trades: 5 });
const config = await loadConfig({ path: join(root, 'config', 'default.yaml'), env: {}, acknowledgeMainnet: false });
const hosted = await loadStrategies(config, root);

const session = new Session();
if (values.profile === true) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: Number(values['interval-us'] ?? 200) });
  await session.post('Profiler.start');
}
const { report, failures, wallMs, cpuMs, spanMs } = await timedReplay(rec, config, hosted);
const sha256 = createHash('sha256').update(replayReportText(report)).digest('hex');
console.log(
  `${minutes} min, ${frames} frames: report sha256 ${sha256}; ${report.totals.orders} orders, ${report.totals.fills} fills, ` +
    `${failures} failures; wall ${(wallMs / 1000).toFixed(2)} s (${Math.round(spanMs / wallMs)}x real time), ` +
    `CPU ${(cpuMs / 1000).toFixed(2)} s, ${((wallMs * 1000) / frames).toFixed(1)} us per frame`,
);
if (values.profile === true) {
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  writeFileSync(join(out, 'replay.cpuprofile'), JSON.stringify(profile));
  printProfileTables(summariseCpuProfile(profile, { root }), Number(values.top ?? 30), 90);
  console.log(`\nprofile: ${join(out, 'replay.cpuprofile')}`);
}
