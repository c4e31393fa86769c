import { performance } from 'node:perf_hooks';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import { startListeningProcess, startSimProcess, type ListeningProcess, type SimProcess } from '../simProcess.js';
import type { LoadRequest, LoadResult } from './loadJob.js';
import { sequencesAsPlanned } from './orderSequences.js';
import { processCpuMs } from './processCpu.js';
import { planPairs } from './requestPlan.js';
import { prepareLoadAccount } from './loadAccount.js';
import { signSlice } from './signedPairs.js';
import { runLoad } from './runLoad.js';

/**
 * sim_throughput's measurement, shared with `bench/profileSim.ts`: the simulator (`npm run sim`,
 * its own process) under pre-signed place-then-cancel pairs from a client process, in rounds
 * alternated with the same requests against the bare signature server (also its own process).
 *
 * The simulator runs with no automatic blocks (`--block-ms 0`): no maker places orders, so the
 * bench's orders are the only ones and their numbers (which the pre-signed cancels commit to)
 * are known in advance; and no per-IP request limit, which the load is far above.
 */
export interface ThroughputOptions {
  /** Pairs of the unmeasured first slice; 0: none. */
  readonly warmupPairs: number;
  readonly pairsPerRound: number;
  readonly rounds: number;
  readonly connections: number;
  /** Each cancel goes this many places after its own place. */
  readonly lag: number;
  /** Node flags for the simulator and bare server processes (the profiler). */
  readonly simNodeFlags?: readonly string[];
  readonly bareNodeFlags?: readonly string[];
  /** Measure the bare server too (the figure's limit). */
  readonly bare: boolean;
}

export interface RoundReading {
  readonly requests: number;
  readonly rate: number;
  /** Server process CPU per request, µs (undefined off Linux). */
  readonly cpuUsPerRequest: number | undefined;
  /** Share of one core the server process used during the round. */
  readonly cpuShare: number | undefined;
  /** Share of one core the load client used during the round. */
  readonly clientCpuShare: number;
}

export interface ThroughputReadings {
  readonly sim: readonly RoundReading[];
  readonly bare: readonly RoundReading[];
  readonly requestsSigned: number;
  /** performance.now() when each server process was spawned and when the measured rounds began. */
  readonly marks: {
    readonly simSpawnedAt: number;
    readonly bareSpawnedAt: number | undefined;
    readonly measuredFrom: number;
  };
}

const SIM_FLAGS = ['--block-ms', '0', '--registration-lag-ms', '0', '--rest-requests-per-10s', '0'];

export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputReadings> {
  let sim: SimProcess | undefined;
  let bare: ListeningProcess | undefined;
  try {
    const simSpawnedAt = performance.now();
    sim = await startSimProcess(
      SIM_FLAGS,
      options.simNodeFlags === undefined ? {} : { nodeFlags: options.simNodeFlags },
    );
    const bareSpawnedAt = options.bare ? performance.now() : undefined;
    if (options.bare)
      bare = await startListeningProcess(
        new URL('../../bareSigServer.ts', import.meta.url),
        [],
        options.bareNodeFlags === undefined ? {} : { nodeFlags: options.bareNodeFlags },
      );
    const bareUrl = bare === undefined ? undefined : /REST (\S+)/.exec(bare.firstLine)?.[1];
    if (bare !== undefined && bareUrl === undefined)
      throw new PerpbotError(`unexpected first line from the bare server: ${bare.firstLine}`, {
        code: 'BENCH_PROCESS_START',
      });

    const { signer, nonce: firstNonce, firstSequence } = await prepareLoadAccount(sim.restUrl);
    let nonce = firstNonce;

    // Every slice's requests, signed before anything is timed.
    // No warm-up slice when none is asked for (the smoke size): every slice is then measured.
    const warm = options.warmupPairs > 0 ? 1 : 0;
    const sizes = [
      ...(warm === 1 ? [options.warmupPairs] : []),
      ...Array.from({ length: options.rounds }, () => options.pairsPerRound),
    ];
    let sequence = firstSequence;
    const slices: { readonly requests: LoadRequest[]; readonly firstSequence: bigint; readonly pairs: number }[] = [];
    for (const pairs of sizes) {
      const plan = planPairs(pairs, options.lag, nonce);
      nonce = plan.next;
      slices.push({ requests: await signSlice(plan.requests, signer, sequence), firstSequence: sequence, pairs });
      sequence += BigInt(pairs);
    }

    const simReadings: RoundReading[] = [];
    const bareReadings: RoundReading[] = [];
    let measuredFrom = Number.NaN;
    for (const [i, slice] of slices.entries()) {
      if (i === warm) measuredFrom = performance.now();
      const simRound = await loadRound(sim.restUrl, sim.pid, slice.requests, options.connections, true);
      checkSimRound(simRound.result, slice.firstSequence, slice.pairs);
      const bareRound =
        bare === undefined || bareUrl === undefined
          ? undefined
          : await loadRound(bareUrl, bare.child.pid ?? 0, slice.requests, options.connections, false);
      if (bareRound !== undefined) checkBareRound(bareRound.result);
      // The first slice only warms both servers up (JIT, connection set-up).
      if (i < warm) continue;
      simReadings.push(simRound.reading);
      if (bareRound !== undefined) bareReadings.push(bareRound.reading);
    }
    return {
      sim: simReadings,
      bare: bareReadings,
      requestsSigned: slices.reduce((n, s) => n + s.requests.length, 0) + 2,
      marks: { simSpawnedAt, bareSpawnedAt, measuredFrom },
    };
  } finally {
    await bare?.stop();
    await sim?.stop();
  }
}

async function loadRound(
  url: string,
  pid: number,
  requests: readonly LoadRequest[],
  connections: number,
  readOrderIds: boolean,
): Promise<{ result: LoadResult; reading: RoundReading }> {
  const cpuBefore = processCpuMs(pid);
  const result = await runLoad({ url, connections, requests, readOrderIds });
  const cpuAfter = processCpuMs(pid);
  // The server idles while the client process starts: its CPU over the call is its CPU over the round.
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return {
    result,
    reading: {
      requests: result.requests,
      rate: (result.requests * 1000) / result.elapsedMs,
      cpuUsPerRequest: cpuMs === undefined ? undefined : (cpuMs * 1000) / result.requests,
      cpuShare: cpuMs === undefined ? undefined : cpuMs / result.elapsedMs,
      clientCpuShare: result.clientCpuMs / result.elapsedMs,
    },
  };
}

function checkSimRound(result: LoadResult, firstSequence: bigint, pairs: number): void {
  const seqs = result.orderSequences;
  const expected = {
    min: firstSequence.toString(),
    max: (firstSequence + BigInt(pairs) - 1n).toString(),
    distinct: pairs,
  };
  if (result.error !== undefined || result.failed > 0 || !sequencesAsPlanned(seqs, firstSequence, pairs)) {
    throw new PerpbotError(
      `sim_throughput: the simulator did not serve every pre-signed request (${result.ok} ok, ${result.failed} refused)`,
      {
        code: 'BENCH_LOAD_FAILED',
        details: {
          error: result.error,
          statuses: result.statuses,
          failures: result.failures,
          orderSequences: seqs,
          expected,
        },
        hints: ['every place must rest and every cancel must find its order; a refusal makes the figure meaningless'],
      },
    );
  }
}

function checkBareRound(result: LoadResult): void {
  if (result.error !== undefined || result.failed > 0) {
    throw new PerpbotError(`sim_throughput: the bare server refused requests (${result.failed})`, {
      code: 'BENCH_LOAD_FAILED',
      details: { error: result.error, statuses: result.statuses, failures: result.failures },
    });
  }
}
