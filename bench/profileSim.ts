/**
 * Profiles the simulator under sim_throughput's load: `node --cpu-prof` on the simulator process,
 * then the profile's top functions by self and total time, and self time per file, over the
 * measured rounds only (start-up and the warm-up round left out). Not a figure:
 *
 *   node --import tsx bench/profileSim.ts [--target sim|bare] [--out <dir>] [--interval-us 100] [--top 15]
 *
 * `--target bare` profiles the bare signature server (sim_throughput's limit) under the same load,
 * for comparison. The profile and a JSON summary stay in the output directory (default: a fresh
 * temp directory).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summariseCpuProfile, type CpuProfile, printProfileTables } from './lib/cpuProfileSummary.js';
import { median } from './lib/measureRate.js';
import { measureThroughput, type RoundReading } from './lib/throughput/simThroughputRun.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    out: { type: 'string' },
    'interval-us': { type: 'string' },
    top: { type: 'string' },
  },
});
const target = values.target ?? 'sim';
if (target !== 'sim' && target !== 'bare') throw new Error(`--target must be sim or bare, got ${target}`);
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), `perpbot-${target}-profile-`)));
const intervalUs = Number(values['interval-us'] ?? 100);
const top = Number(values.top ?? 15);
const root = fileURLToPath(new URL('..', import.meta.url));
const profilerFlags = ['--cpu-prof', '--cpu-prof-dir', out, '--cpu-prof-interval', String(intervalUs)];

const readings = await measureThroughput({
  warmupPairs: 1_500,
  pairsPerRound: 4_000,
  rounds: 2,
  connections: 8,
  lag: 32,
  bare: target === 'bare',
  ...(target === 'sim' ? { simNodeFlags: profilerFlags } : { bareNodeFlags: profilerFlags }),
});
// tsx's loader thread writes a small profile of its own: the server's is the largest.
const profiles = readdirSync(out).filter((f) => f.endsWith('.cpuprofile'));
const largest = profiles.sort((a, b) => statSync(join(out, b)).size - statSync(join(out, a)).size)[0];
if (largest === undefined) throw new Error(`no .cpuprofile in ${out}: did the server exit cleanly on SIGTERM?`);
const spawnedAt = target === 'sim' ? readings.marks.simSpawnedAt : (readings.marks.bareSpawnedAt ?? 0);
const summary = summariseCpuProfile(JSON.parse(readFileSync(join(out, largest), 'utf8')) as CpuProfile, {
  root,
  // The profile starts with the process: skip to the first measured round.
  fromMs: readings.marks.measuredFrom - spawnedAt,
});
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

const rounds: readonly RoundReading[] = target === 'sim' ? readings.sim : readings.bare;
const rate = median(rounds.map((r) => r.rate));
console.log(
  `${target} under load (profiled, ${intervalUs} us sampling): ${Math.round(rate)} signed requests/s; rounds ${rounds.map((r) => Math.round(r.rate)).join(' / ')}`,
);
console.log(
  `CPU us/request (profiled): ${rounds.map((r) => r.cpuUsPerRequest?.toFixed(1) ?? 'n/a').join(' / ')}; CPU share of a core: ${rounds.map((r) => r.cpuShare?.toFixed(2) ?? 'n/a').join(' / ')}`,
);
console.log(
  `profile ${join(out, largest)} (measured rounds only): sampled ${summary.sampledMs} ms, busy ${summary.busyMs} ms, idle ${summary.idleMs} ms`,
);
printProfileTables(summary, top, 100);
console.log(`\nwrote ${join(out, 'summary.json')}`);
