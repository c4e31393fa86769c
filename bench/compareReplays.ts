/**
 * The replay figure's work at a base commit against this checkout, in one process, turn about: on
 * a shared machine the CPU time of one replay moves by a third from run to run, far more than a
 * step worth a few percent, so single figures (or runs of one code, then the other) cannot tell
 * them apart. Here both checkouts' modules are loaded side by side and their replays of one
 * synthetic recording alternate (the base first in even rounds, the checkout first in odd ones),
 * so a change of load falls on both of a pair; the paired ratios and their median are the figure. Each report's sha256 is printed and must not differ. Not a
 * figure of `npm run bench`:
 *
 *   node --import tsx bench/compareReplays.ts --base <commit> [--rounds 8] [--minutes 15]
 *
 * The base is exported with `git archive` into a temporary directory that shares this checkout's
 * node_modules.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { exportCommit } from './lib/exportCommit.js';
import { pairOrder, pairRatiosText, upperMedian } from './lib/pairedRuns.js';
import { synthRecording } from './lib/replay/synthRecording.js';

const { values } = parseArgs({
  options: { base: { type: 'string' }, rounds: { type: 'string' }, minutes: { type: 'string' } },
});
if (values.base === undefined) throw new Error('--base <commit> is required (the code to compare this checkout with)');
const rounds = Number(values.rounds ?? 8);
const minutes = Number(values.minutes ?? 15);
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** One checkout's replay as the figure runs it, with the report's hash. */
interface Contender {
  readonly name: string;
  replay(path: string): Promise<{ readonly sha256: string; readonly cpuMs: number }>;
}

/** The replay of the checkout at `dir`, its modules loaded from there. */
async function contender(name: string, dir: string): Promise<Contender> {
  const { loadStrategies } = await import(join(dir, 'src/runtime/bot/wiring/loadStrategies.ts'));
  const { loadConfig } = await import(join(dir, 'src/runtime/config/loadConfig.ts'));
  const { replayReportText } = await import(join(dir, 'src/runtime/replay/replayReport.ts'));
  const { timedReplay } = await import(join(dir, 'bench/lib/replay/timedReplay.ts'));
  const config = await loadConfig({ path: join(dir, 'config', 'default.yaml'), env: {}, acknowledgeMainnet: false });
  const hosted = await loadStrategies(config, dir);
  return {
    name,
    replay: async (path) => {
      const { report, cpuMs } = await timedReplay(path, config, hosted);
      return { sha256: createHash('sha256').update(replayReportText(report)).digest('hex'), cpuMs };
    },
  };
}

async function main(base: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'perpbot-compare-replays-'));
  try {
    const contenders = [await contender(base, exportCommit(root, base, scratch)), await contender('checkout', root)];
    const rec = join(scratch, 'rec');
    const frames = await synthRecording(rec, minutes / 60, { book: 10, oracle: 5, trades: 5 });
    const cpu: number[][] = [[], []];
    for (let round = 0; round < rounds; round++) {
      for (const k of pairOrder(round, 0, 1)) {
        const c = contenders[k]!;
        const { sha256, cpuMs } = await c.replay(rec);
        cpu[k]!.push(cpuMs);
        console.log(`round ${round} ${c.name}: report sha256 ${sha256}, CPU ${(cpuMs / 1000).toFixed(2)} s`);
      }
    }
    console.log(
      `${minutes} min, ${frames} frames; CPU median ${(upperMedian(cpu[0]!) / 1000).toFixed(2)} s (${base}) and ` +
        `${(upperMedian(cpu[1]!) / 1000).toFixed(2)} s (checkout); ${pairRatiosText(cpu[0]!, cpu[1]!)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main(values.base);
