import { performance } from 'node:perf_hooks';
import { venueSender } from '../../src/engine/sending/actionSender.js';
import type { BenchScale, Figure, FigureBench } from './figure.js';
import { benchAccountAt } from './simAccount.js';
import { startSimProcess, type SimProcess } from './simProcess.js';
import { benchEngine, restingBid } from './benchEngine.js';
import { median, percentile } from './measureRate.js';
import { NaiveClient } from './naiveClient.js';
import { NONCE_ERROR_PATTERN, nonceErrorCount } from './nonceErrorCount.js';

/**
 * Order bursts against the simulator on loopback: the engine fires every order at once (nonces
 * allocated locally, fast signer), the naive client goes one order at a time. At the full size
 * each run gets a fresh simulator process (`npm run sim`), so the venue's 500 requests per 10 s
 * per IP limit never sees more than one run (about 215 requests for the engine, 410 for the naive
 * client) and never distorts a figure.
 */
export interface OrderBurstOptions {
  readonly name: string;
  /** Added by the simulator to every REST request (`--latency-ms`). */
  readonly latencyMs: number;
  readonly orders?: number;
  readonly runs?: number;
  /**
   * The ratio to the naive client the engine must reach (with zero nonce errors and failures);
   * absent: the figure and its ratio are reported, judged against no target.
   */
  readonly targetRatio?: number;
}

interface RunResult {
  readonly ordersPerSecond: number;
  readonly latenciesMs: readonly number[];
  readonly failed: number;
  readonly nonceErrors: number;
}

/**
 * The smoke size: one run of each client, a few orders, no warm-up runs, and both runs on one
 * simulator process (a process costs about two CPU-seconds under tsx, the burst a fraction of one;
 * two runs of a few orders are far from the rate limit a fresh simulator per run keeps apart).
 */
const SMOKE = { orders: 8 } as const;

export function orderBurstBench(options: OrderBurstOptions): FigureBench {
  return {
    name: options.name,
    async run(scale: BenchScale): Promise<Figure> {
      const orders = scale === 'full' ? (options.orders ?? 200) : SMOKE.orders;
      const runs = scale === 'full' ? (options.runs ?? 3) : 1;
      const { engineRuns, naiveRuns } =
        scale === 'full'
          ? await alternatedRuns(options.latencyMs, orders, runs)
          : await withSim(options.latencyMs, async (sim) => ({
              engineRuns: [await engineBurst(sim, orders, 'run0')],
              naiveRuns: [await naiveBurst(sim, orders)],
            }));
      const engineRate = median(engineRuns.map((r) => r.ordersPerSecond));
      const naiveRate = median(naiveRuns.map((r) => r.ordersPerSecond));
      const engineLatencies = engineRuns.flatMap((r) => r.latenciesMs);
      const naiveLatencies = naiveRuns.flatMap((r) => r.latenciesMs);
      const engineNonceErrors = sum(engineRuns.map((r) => r.nonceErrors));
      const engineFailed = sum(engineRuns.map((r) => r.failed));
      const ms = (v: number) => Number(v.toFixed(2));
      return {
        name: options.name,
        value: Math.round(engineRate),
        unit: 'orders/s',
        baseline_name: 'naive client (nonce read + viem signTypedData + send, one at a time)',
        baseline_value: Math.round(naiveRate),
        ...(options.targetRatio === undefined
          ? {}
          : {
              target: `>= ${options.targetRatio}x baseline, zero nonce errors`,
              target_met:
                engineRate >= options.targetRatio * naiveRate && engineNonceErrors === 0 && engineFailed === 0,
            }),
        notes: {
          'orders per run': orders,
          'measured runs (median)': runs,
          'added latency ms/request': options.latencyMs,
          'engine p50 ms': ms(percentile(engineLatencies, 50)),
          'engine p99 ms': ms(percentile(engineLatencies, 99)),
          'naive p50 ms': ms(percentile(naiveLatencies, 50)),
          'naive p99 ms': ms(percentile(naiveLatencies, 99)),
          'engine nonce errors': engineNonceErrors,
          'engine failed orders': engineFailed,
          'naive nonce errors': sum(naiveRuns.map((r) => r.nonceErrors)),
          'naive failed orders': sum(naiveRuns.map((r) => r.failed)),
          'rate limit':
            scale === 'full'
              ? 'fresh simulator per run (each run < 500 requests per 10 s)'
              : 'one simulator for both smoke runs',
          simulator: 'separate process (npm run sim), loopback',
        },
      };
    },
  };
}

/**
 * A fresh simulator process per run: a fresh rate-limit window, an empty book, and no event loop
 * shared with the client being measured. The added latency applies to every request of the run,
 * setup included; only the burst is timed.
 */
async function withSim<T>(latencyMs: number, body: (sim: SimProcess) => Promise<T>): Promise<T> {
  const sim = await startSimProcess(['--registration-lag-ms', '0', '--latency-ms', String(latencyMs)]);
  try {
    return await body(sim);
  } finally {
    await sim.stop();
  }
}

/**
 * One unmeasured run of each client first (JIT, connection pools), then the two alternated so that
 * noise from other processes on the machine falls on both alike; each run on a fresh simulator.
 */
async function alternatedRuns(
  latencyMs: number,
  orders: number,
  runs: number,
): Promise<{ engineRuns: RunResult[]; naiveRuns: RunResult[] }> {
  const engineRuns: RunResult[] = [];
  const naiveRuns: RunResult[] = [];
  await withSim(latencyMs, (sim) => engineBurst(sim, orders, 'warm'));
  await withSim(latencyMs, (sim) => naiveBurst(sim, Math.min(orders, 50)));
  for (let r = 0; r < runs; r++) {
    engineRuns.push(await withSim(latencyMs, (sim) => engineBurst(sim, orders, `run${r}`)));
    naiveRuns.push(await withSim(latencyMs, (sim) => naiveBurst(sim, orders)));
  }
  return { engineRuns, naiveRuns };
}

/** All orders fired at once; latency is intent to acknowledgement, queueing included. */
async function engineBurst(sim: SimProcess, orders: number, run: string): Promise<RunResult> {
  const who = await benchAccountAt(sim.restUrl);
  const counter = nonceErrorCount();
  const engine = benchEngine(who, venueSender(who.rest), counter.journal);
  await engine.start();
  const latenciesMs: number[] = [];
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: orders }, async (_, i) => {
      const sent = performance.now();
      const outcome = await engine.execute(restingBid(i, run));
      latenciesMs.push(performance.now() - sent);
      return outcome;
    }),
  );
  const elapsedMs = performance.now() - started;
  await engine.stop();
  return {
    ordersPerSecond: (orders * 1000) / elapsedMs,
    latenciesMs,
    failed: outcomes.filter((o) => o.type !== 'accepted').length,
    nonceErrors: counter.nonceErrors(),
  };
}

/** One order at a time, each after a fresh nonce read, as published clients do. */
async function naiveBurst(sim: SimProcess, orders: number): Promise<RunResult> {
  const who = await benchAccountAt(sim.restUrl);
  const client = new NaiveClient({
    restUrl: sim.restUrl,
    account: who.account,
    signerKey: who.signerKey,
    context: who.context,
  });
  const latenciesMs: number[] = [];
  let failed = 0;
  let nonceErrors = 0;
  const started = performance.now();
  for (let i = 0; i < orders; i++) {
    const sent = performance.now();
    try {
      await client.placeBid({ size: '0.00015', price: (30_000 + (i % 50)).toString() });
    } catch (error) {
      failed++;
      if (NONCE_ERROR_PATTERN.test(error instanceof Error ? error.message : String(error))) nonceErrors++;
    }
    latenciesMs.push(performance.now() - sent);
  }
  const elapsedMs = performance.now() - started;
  return { ordersPerSecond: (orders * 1000) / elapsedMs, latenciesMs, failed, nonceErrors };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
