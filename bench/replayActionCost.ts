/**
 * What the market maker's order actions cost a replay: the 15-minute synthetic recording replayed
 * with config/default.yaml, turn about, with the market maker as configured and with the same
 * market maker whose intents are dropped (it computes every target, nothing reaches the engine).
 * The difference of their CPU times is what its actions cost (the engine's stages, the request
 * into the in-process simulator, the matching, the frames back, the tracker and the ledger), per
 * action over its placements and as many cancels (each placement but the first few replaces a
 * quote). A third run each round gives the replay's floor: the same strategies reading nothing
 * and sending nothing (no channel of theirs is published; the engine still follows the marks and
 * its account), what the replay costs before any strategy's work. The first round warms the JIT
 * and is not counted. Prints the medians of the counted rounds; `--root` runs another checkout's
 * modules (a base exported by `git archive`). Not a figure of `npm run bench`:
 *
 *   node --import tsx bench/replayActionCost.ts [--rounds 4] [--minutes 15] [--root <dir>]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EMPTY, filter } from 'rxjs';
import type { HostedStrategy } from '../src/strategy/strategyHost.js';
import { upperMedian } from './lib/pairedRuns.js';
import { synthRecording } from './lib/replay/synthRecording.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, minutes: { type: 'string' }, root: { type: 'string' } },
});
const rounds = Number(values.rounds ?? 4);
const minutes = Number(values.minutes ?? 15);
const root = resolve(values.root ?? fileURLToPath(new URL('..', import.meta.url)));

const { loadStrategies } = await import(join(root, 'src/runtime/bot/wiring/loadStrategies.ts'));
const { loadConfig } = await import(join(root, 'src/runtime/config/loadConfig.ts'));
const { replayReportText } = await import(join(root, 'src/runtime/replay/replayReport.ts'));
const { timedReplay } = await import(join(root, 'bench/lib/replay/timedReplay.ts'));

const config = await loadConfig({ path: join(root, 'config', 'default.yaml'), env: {}, acknowledgeMainnet: false });
const hosted = (await loadStrategies(config, root)) as readonly HostedStrategy[];
/** The same strategies, each computing its intents and dropping them. */
const dropped: readonly HostedStrategy[] = hosted.map((h) => ({
  ...h,
  definition: { ...h.definition, run: (ctx) => h.definition.run(ctx).pipe(filter(() => false)) },
}));
/** The same strategies reading nothing: the replay's floor. */
const idle: readonly HostedStrategy[] = hosted.map((h) => ({
  ...h,
  definition: { ...h.definition, run: () => EMPTY },
}));
const runs = { trading: hosted, dropped, idle } as const;

const scratch = mkdtempSync(join(tmpdir(), 'perpbot-action-cost-'));
try {
  const rec = join(scratch, 'rec');
  await synthRecording(rec, minutes / 60, { book: 10, oracle: 5, trades: 5 });
  const cpu = { trading: [] as number[], dropped: [] as number[], idle: [] as number[] };
  let actions = 0;
  for (let round = 0; round <= rounds; round++) {
    // The pair's order alternates, so a change of load falls on both.
    const order =
      round % 2 === 0 ? (['trading', 'dropped', 'idle'] as const) : (['idle', 'dropped', 'trading'] as const);
    for (const kind of order) {
      const { report, cpuMs } = await timedReplay(rec, config, runs[kind]);
      if (kind === 'trading') actions = 2 * report.totals.orders;
      const sha256 = createHash('sha256').update(replayReportText(report)).digest('hex');
      console.log(`round ${round} ${kind}: CPU ${(cpuMs / 1000).toFixed(2)} s, report sha256 ${sha256.slice(0, 8)}`);
      if (round > 0) cpu[kind].push(cpuMs);
    }
  }
  const trading = upperMedian(cpu.trading);
  const quiet = upperMedian(cpu.dropped);
  const floor = upperMedian(cpu.idle);
  console.log(
    `${minutes} min: CPU median ${(trading / 1000).toFixed(2)} s trading, ${(quiet / 1000).toFixed(2)} s intents dropped, ` +
      `${(floor / 1000).toFixed(2)} s reading nothing (the floor: ${Math.round((minutes * 60_000) / floor)}x real time if wall time were CPU time); ` +
      `${actions} actions, ${(((trading - quiet) * 1000) / actions).toFixed(0)} us each`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
