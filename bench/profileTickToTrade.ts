/**
 * Profiles tick_to_trade's one process (strategy host, engine, REST client, and the in-process
 * feed, venue and idle simulator): the V8 CPU profiler runs over the measured frames only (the
 * warm-up left out), then the top functions by self and total time. Not a figure:
 *
 *   node --import tsx bench/profileTickToTrade.ts [--frames 5000] [--interval-us 50] [--top 20] [--out <dir>] [--no-busy-poll] [--path]
 *
 * `--path` keeps only the samples taken on each measured cycle's way, from its frame's bytes to its
 * request's write (what the figure times), leaving out the answers, the pacing and the idle loop;
 * its tables are then that way's time per function, summed over the cycles.
 *
 * The profile (.cpuprofile, loadable in Chrome DevTools) and a JSON summary stay in the output
 * directory (default: a fresh temp directory).
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { summariseCpuProfile, type CpuProfile, printProfileTables } from './lib/cpuProfileSummary.js';
import { summariseUs } from './lib/tickToTrade/latencySummary.js';
import { oracleFrames } from './lib/tickToTrade/oracleFrames.js';
import { measureTickToTrade } from './lib/tickToTrade/tickToTradeRun.js';

const { values } = parseArgs({
  options: {
    frames: { type: 'string' },
    'interval-us': { type: 'string' },
    top: { type: 'string' },
    out: { type: 'string' },
    'no-busy-poll': { type: 'boolean' },
    path: { type: 'boolean' },
  },
});
const frames = Number(values.frames ?? 5_000);
const warmupFrames = 2_000;
const intervalUs = Number(values['interval-us'] ?? 50);
const top = Number(values.top ?? 20);
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'perpbot-tick-profile-')));
const root = fileURLToPath(new URL('..', import.meta.url));
mkdirSync(out, { recursive: true });

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
const readings = await measureTickToTrade(
  {
    frames,
    warmupFrames,
    paceMs: 1,
    busyPoll: values['no-busy-poll'] !== true,
    onMeasuredFrom: () => session.post('Profiler.start'),
  },
  oracleFrames(warmupFrames + frames),
);
const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
session.disconnect();
writeFileSync(join(out, 'tick.cpuprofile'), JSON.stringify(profile));
// performance.now() (the stamps) to the profiler's clock, the monotonic one of process.hrtime, in µs.
const clockOffsetUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
const windowsUs = readings.samples.map((s): readonly [number, number] => [
  s.arrivalAt * 1000 + clockOffsetUs,
  (s.arrivalAt + s.totalMs) * 1000 + clockOffsetUs,
]);
const summary = summariseCpuProfile(profile, values.path === true ? { root, windowsUs } : { root });
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

const us = (pick: (s: (typeof readings.samples)[number]) => number) => summariseUs(readings.samples.map(pick));
const total = us((s) => s.totalMs);
console.log(
  `tick_to_trade (profiled, ${intervalUs} us sampling, ${frames} frames): p50 ${total.p50} us, p99 ${total.p99} us`,
);
console.log(
  `  feed->strategy p50 ${us((s) => s.toStrategyMs).p50}, engine p50 ${us((s) => s.toSenderMs - s.toStrategyMs).p50}, sender->socket p50 ${us((s) => s.totalMs - s.toSenderMs).p50} us`,
);
console.log(
  `profile ${join(out, 'tick.cpuprofile')}: sampled ${summary.sampledMs} ms, busy ${summary.busyMs} ms, idle ${summary.idleMs} ms (${((summary.busyMs * 1000) / frames).toFixed(1)} busy us per frame)`,
);
if (values.path === true)
  console.log(`on the cycles' way only: ${((summary.sampledMs * 1000) / frames).toFixed(1)} sampled us per cycle`);
printProfileTables(summary, top, 110);
