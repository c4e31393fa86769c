/**
 * npm run soak [-- --minutes 10 --block-ms 2 --no-book-watcher]: the default profile's strategy (config/default.yaml,
 * the market maker) trades against the simulator, which runs in a child process with a short
 * block time (2 ms asked; the block rate the simulator reaches is reported) so that the process
 * ingests frames at a high rate: the strategy's oracle frame every block, plus a book watcher
 * (`bench/lib/bookWatcher.ts`) taking every market's orderbook and the trades. The target is
 * about 1,000 frames per second; the rate reached is reported. Reports the bot's RSS after a warm-up and at the end,
 * the growth (target < 10 %), and the simulator's own RSS (it runs in a child process; issue 3's
 * "holds steady memory at 1,000 frames/s", same 10 % bound), sampled after a full GC every 30 s,
 * and writes the soak_rss and soak_sim_rss figures into bench/results.json, keeping the others.
 */
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InvalidValueError } from '../src/core/invalidValueError.js';
import { loadConfig } from '../src/runtime/config/loadConfig.js';
import { createLogger } from '../src/runtime/operations/logging/createLogger.js';
import { runBot } from '../src/runtime/bot/runBot.js';
import type { BaselinedFigure } from './lib/figure.js';
import { median } from './lib/measureRate.js';
import { startBookWatcher, type BookWatcher } from './lib/bookWatcher.js';
import { upsertFigure } from './lib/resultsFile.js';
import { benchAccountAt } from './lib/simAccount.js';
import type { SoakSimReady, SoakSimStats } from './soakSimProcess.js';

const TARGET_GROWTH_PERCENT = 10;
const MiB = 2 ** 20;

interface SoakArgs {
  readonly minutes: number;
  readonly blockMs: number;
  /** Books of every market and trades watched beside the bot (on by default). */
  readonly watchBooks: boolean;
}

function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: { minutes: { type: 'string' }, 'block-ms': { type: 'string' }, 'no-book-watcher': { type: 'boolean' } },
  });
  const minutes = Number(values.minutes ?? '10');
  if (!Number.isFinite(minutes) || minutes < 0.5 || minutes > 24 * 60)
    throw new InvalidValueError('--minutes', values.minutes, 'a number of minutes from 0.5 to 1440');
  const blockMs = Number(values['block-ms'] ?? '2');
  if (!Number.isSafeInteger(blockMs) || blockMs < 1 || blockMs > 1000)
    throw new InvalidValueError('--block-ms', values['block-ms'], 'a whole number of milliseconds from 1 to 1000');
  return { minutes, blockMs, watchBooks: values['no-book-watcher'] !== true };
}

/** Log lines are formatted as usual and then discarded; only warnings and errors are counted. */
function countingSink(): {
  stream: Writable;
  warnings: () => number;
  errors: () => number;
  reconnects: () => number;
  firstProblems: () => string[];
} {
  const problems = new Set<string>();
  let warnings = 0;
  let errors = 0;
  let reconnects = 0;
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      const line = chunk.toString();
      if (line.includes('"level":40')) warnings++;
      if (line.includes('"level":50') || line.includes('"level":60')) errors++;
      if (line.includes('connection lost; reconnecting')) reconnects++;
      const msg = `${/"msg":"([^"]*)"/.exec(line)?.[1] ?? ''} ${/"message":"([^"]{0,160})/.exec(line)?.[1] ?? ''}`;
      if (/"level":[456]0/.test(line) && problems.size < 5) problems.add(msg);
      callback();
    },
  });
  return {
    stream,
    warnings: () => warnings,
    errors: () => errors,
    reconnects: () => reconnects,
    firstProblems: () => [...problems],
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const args = parseSoakArgs(process.argv.slice(2));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const totalMs = args.minutes * 60_000;
  // The start reading comes after the bot has built its caches and JIT has settled.
  const warmupMs = Math.min(60_000, totalMs / 5);

  const child = fork(fileURLToPath(new URL('./soakSimProcess.ts', import.meta.url)), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, SOAK_SIM_BLOCK_MS: String(args.blockMs) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let simStats: SoakSimStats | undefined;
  let onMeasured: ((stats: SoakSimStats) => void) | undefined;
  const ready = new Promise<SoakSimReady>((resolve, reject) => {
    child.on('message', (m: SoakSimReady | SoakSimStats) => {
      if (m.type === 'ready') resolve(m);
      else {
        simStats = m;
        if (m.afterGc) onMeasured?.(m);
      }
    });
    child.once('exit', (code) => reject(new Error(`soak simulator exited early with code ${code}`)));
  });
  const bot = new AbortController();
  let running: Promise<void> | undefined;
  let watcher: BookWatcher | undefined;
  try {
    const sim = await ready;
    const who = await benchAccountAt(sim.restUrl);
    const loaded = await loadConfig({
      path: fileURLToPath(new URL('../config/default.yaml', import.meta.url)),
      env: { ...process.env, PERPBOT_REST_URL: sim.restUrl, PERPBOT_WS_URL: sim.wsUrl },
    });
    // A journal of its own: the profile's data/journal.sqlite belongs to whoever runs npm start in
    // this directory (a shared one failed with SQLITE_BUSY), and holds another account's history.
    const config = {
      ...loaded,
      journal: { ...loaded.journal, path: join(mkdtempSync(join(tmpdir(), 'perpbot-soak-')), 'journal.sqlite') },
    };
    const sink = countingSink();
    const logger = createLogger({ level: config.logging.level, pretty: false, destination: sink.stream });
    let started!: () => void;
    const isReady = new Promise<void>((resolve) => (started = resolve));
    running = runBot({
      config,
      keys: { account: { address: who.account }, signer: { address: who.signer.address, privateKey: who.signerKey } },
      restUrl: sim.restUrl,
      wsUrl: sim.wsUrl,
      logger,
      signal: bot.signal,
      root,
      onReady: () => started(),
    });
    await Promise.race([isReady, running]);
    if (args.watchBooks) watcher = await startBookWatcher(sim.wsUrl, who.rest);
    process.stderr.write(
      `soak: bot running against the simulator (block ${args.blockMs} ms); ${args.minutes} min, warm-up ${Math.round(warmupMs / 1000)} s\n`,
    );

    await sleep(warmupMs);
    const measureSim = (): Promise<SoakSimStats> =>
      new Promise((resolve) => {
        onMeasured = resolve;
        child.send({ type: 'measure' });
      });
    const start = await readMemory(measureSim);
    const framesAtStart = simStats?.framesSent ?? 0;
    const blocksAtStart = simStats?.blockNumber ?? 0;
    const measuredFrom = Date.now();
    const samples: number[] = [start.botRss];
    const simSamples: number[] = [start.simRss];
    while (Date.now() - measuredFrom < totalMs - warmupMs - 3_000) {
      await sleep(Math.min(30_000, Math.max(1_000, totalMs - warmupMs - 3_000 - (Date.now() - measuredFrom))));
      fullGc();
      samples.push(process.memoryUsage().rss);
      const simNow = await measureSim();
      simSamples.push(simNow.rssBytes);
      const growth = ((samples[samples.length - 1]! - start.botRss) / start.botRss) * 100;
      const simGrowthNow = ((simNow.rssBytes - start.simRss) / start.simRss) * 100;
      process.stderr.write(
        `soak: ${((Date.now() - measuredFrom) / 60_000).toFixed(1)} min, bot RSS ${(samples[samples.length - 1]! / MiB).toFixed(1)} MiB (${growth.toFixed(1)} %), sim RSS ${(simNow.rssBytes / MiB).toFixed(1)} MiB (${simGrowthNow.toFixed(1)} %), sim heap ${(simNow.heapUsedBytes / MiB).toFixed(1)} MiB\n`,
      );
    }
    const end = await readMemory(measureSim);
    const measuredSeconds = (Date.now() - measuredFrom) / 1000;
    const framesPerSecond = ((simStats?.framesSent ?? 0) - framesAtStart) / measuredSeconds;
    const blocksPerSecond = ((simStats?.blockNumber ?? 0) - blocksAtStart) / measuredSeconds;

    const growth = ((end.botRss - start.botRss) / start.botRss) * 100;
    const simGrowth = ((end.simRss - start.simRss) / start.simRss) * 100;
    const mib = (bytes: number) => Number((bytes / MiB).toFixed(1));
    const figure: BaselinedFigure = {
      name: 'soak_rss',
      value: mib(end.botRss),
      unit: 'MiB RSS',
      baseline_name: 'bot RSS at start (after warm-up)',
      baseline_value: mib(start.botRss),
      target: `growth < ${TARGET_GROWTH_PERCENT} % over the run`,
      target_met: growth < TARGET_GROWTH_PERCENT,
      notes: {
        minutes: args.minutes,
        'warm-up s': Math.round(warmupMs / 1000),
        'bot RSS growth %': Number(growth.toFixed(1)),
        readings: 'after a full GC in each process',
        'bot heap used MiB start/end': `${mib(start.botHeap)}/${mib(end.botHeap)}`,
        'sim RSS MiB start/end': `${mib(start.simRss)}/${mib(end.simRss)}`,
        'sim RSS growth %': Number(simGrowth.toFixed(1)),
        'frames/s to the bot': Math.round(framesPerSecond),
        'sim block ms': args.blockMs,
        'sim blocks/s': Math.round(blocksPerSecond),
        'bot warnings/errors logged': `${sink.warnings()}/${sink.errors()}`,
        'bot reconnects': sink.reconnects(),
        'max bot RSS MiB (sampled)': mib(Math.max(...samples, end.botRss)),
        'book watcher': args.watchBooks
          ? `${watcher?.stats().framesReceived ?? 0} frames, ${watcher?.stats().checksumMismatches ?? 0} checksum mismatches, ${watcher?.stats().reconnects ?? 0} reconnects`
          : 'off',
      },
    };
    // Issue 3's target: `npm run sim` holds steady memory at about 1,000 frames/s.
    const simFigure: BaselinedFigure = {
      name: 'soak_sim_rss',
      value: mib(end.simRss),
      unit: 'MiB RSS',
      baseline_name: 'simulator RSS at start (after warm-up)',
      baseline_value: mib(start.simRss),
      target: `growth < ${TARGET_GROWTH_PERCENT} % over the run at >= 1,000 frames/s`,
      target_met: simGrowth < TARGET_GROWTH_PERCENT && framesPerSecond >= 1000,
      notes: {
        minutes: args.minutes,
        'sim RSS growth %': Number(simGrowth.toFixed(1)),
        'sim heap used MiB start/end': `${mib(start.simHeap)}/${mib(end.simHeap)}`,
        'max sim RSS MiB (sampled after GC)': mib(Math.max(...simSamples, end.simRss)),
        'frames/s sent': Math.round(framesPerSecond),
        'sim blocks/s': Math.round(blocksPerSecond),
        readings: 'after a full GC in the simulator process',
      },
    };
    await watcher?.close();
    bot.abort();
    await running;
    const resultsPath = new URL('./results.json', import.meta.url);
    upsertFigure(resultsPath, figure);
    upsertFigure(resultsPath, simFigure);
    console.table(
      [figure, simFigure].map((f) => ({
        figure: f.name,
        start: `${f.baseline_value} MiB`,
        end: `${f.value} MiB`,
        growth: `${(((f.value - f.baseline_value) / f.baseline_value) * 100).toFixed(1)} %`,
        target: f.target,
        met: f.target_met ? 'yes' : 'NO',
      })),
    );
    if (sink.firstProblems().length > 0)
      process.stderr.write(`soak: bot warnings seen: ${sink.firstProblems().join(' | ')}\n`);
    for (const f of [figure, simFigure])
      console.log(
        `${f.name}: ${Object.entries(f.notes ?? {})
          .map(([k, v]) => `${k} = ${v}`)
          .join(', ')}`,
      );
    console.log('wrote bench/results.json');
  } finally {
    await watcher?.close();
    bot.abort();
    await running?.catch(() => undefined);
    child.removeAllListeners('exit');
    if (child.connected) child.disconnect();
  }
}

/**
 * `gc()` without restarting node with --expose-gc (npm run soak runs plain tsx): readings after a
 * full collection compare retained memory; without it a 2-minute run mostly measures how far the
 * collector let garbage pile up (seen: heap 62 -> 137 MiB uncollected, 32 MiB after a GC).
 */
function fullGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Three readings a second apart, each after a full GC in both processes; medians. */
async function readMemory(
  sim: () => Promise<SoakSimStats>,
): Promise<{ botRss: number; botHeap: number; simRss: number; simHeap: number }> {
  const bot: number[] = [];
  const heap: number[] = [];
  const simRss: number[] = [];
  const simHeap: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await sleep(1000);
    fullGc();
    const memory = process.memoryUsage();
    bot.push(memory.rss);
    heap.push(memory.heapUsed);
    const stats = await sim();
    simRss.push(stats.rssBytes);
    simHeap.push(stats.heapUsedBytes);
  }
  return { botRss: median(bot), botHeap: median(heap), simRss: median(simRss), simHeap: median(simHeap) };
}

await main();
