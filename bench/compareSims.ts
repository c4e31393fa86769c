/**
 * sim_throughput's load against the simulator of a base commit and of this checkout, turn about:
 * on a shared machine one simulator's CPU per request moves by half from round to round, far more
 * than a step worth a few percent, and the figure's own ratio (against the bare server) moves with
 * it. Here both simulators run at once, each its own process (`src/sim/cli.ts` of its tree, as the
 * figure starts it), and take the same kind of pre-signed place-then-cancel rounds in alternation
 * (base first in even rounds, the checkout first in odd ones), so a change of load falls on both
 * of a pair; the CPU per request of each (from /proc) and the paired ratios are the figure. Not a
 * figure of `npm run bench`:
 *
 *   node --import tsx bench/compareSims.ts --base <commit> [--rounds 10] [--pairs 2000]
 *
 * The first round of each only warms it up. The base is exported with `git archive` into a
 * temporary directory that shares this checkout's node_modules.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { exportCommit } from './lib/exportCommit.js';
import { pairOrder, pairRatiosText, upperMedian } from './lib/pairedRuns.js';
import { startListeningProcess, type ListeningProcess } from './lib/simProcess.js';
import type { LoadRequest } from './lib/throughput/loadJob.js';
import { prepareLoadAccount } from './lib/throughput/loadAccount.js';
import { processCpuMs } from './lib/throughput/processCpu.js';
import { planPairs } from './lib/throughput/requestPlan.js';
import { runLoad } from './lib/throughput/runLoad.js';
import { signSlice } from './lib/throughput/signedPairs.js';

const { values } = parseArgs({
  options: { base: { type: 'string' }, rounds: { type: 'string' }, pairs: { type: 'string' } },
});
if (values.base === undefined) throw new Error('--base <commit> is required (the code to compare this checkout with)');
const rounds = Number(values.rounds ?? 10);
const pairs = Number(values.pairs ?? 2_000);
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** As sim_throughput starts the simulator (bench/lib/throughput/simThroughputRun.ts). */
const SIM_FLAGS = ['--port', '0', '--block-ms', '0', '--registration-lag-ms', '0', '--rest-requests-per-10s', '0'];

/** One tree's simulator with its account's rounds signed in advance. */
interface Contender {
  readonly name: string;
  readonly process: ListeningProcess;
  readonly url: string;
  readonly slices: readonly (readonly LoadRequest[])[];
  readonly cpuUsPerRequest: number[];
}

async function contender(name: string, dir: string): Promise<Contender> {
  const process = await startListeningProcess(pathToFileURL(join(dir, 'src/sim/cli.ts')), SIM_FLAGS);
  const url = /REST (\S+)/.exec(process.firstLine)?.[1];
  if (url === undefined) throw new Error(`unexpected first line from the ${name} simulator: ${process.firstLine}`);
  const account = await prepareLoadAccount(url);
  let nonce = account.nonce;
  let sequence = account.firstSequence;
  const slices: LoadRequest[][] = [];
  for (let round = 0; round <= rounds; round++) {
    const plan = planPairs(pairs, 32, nonce);
    nonce = plan.next;
    slices.push(await signSlice(plan.requests, account.signer, sequence));
    sequence += BigInt(pairs);
  }
  return { name, process, url, slices, cpuUsPerRequest: [] };
}

/** One round of a contender: every request must be served, as the figure requires. */
async function runRound(c: Contender, round: number): Promise<void> {
  const pid = c.process.child.pid ?? 0;
  const before = processCpuMs(pid);
  const result = await runLoad({ url: c.url, connections: 8, requests: c.slices[round] ?? [], readOrderIds: false });
  const after = processCpuMs(pid);
  if (result.error !== undefined || result.failed > 0)
    throw new Error(`${c.name}: ${result.failed} requests refused (${result.error ?? result.failures.join('; ')})`);
  if (round > 0 && before !== undefined && after !== undefined)
    c.cpuUsPerRequest.push(((after - before) * 1000) / result.requests);
}

async function main(base: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'perpbot-compare-sims-'));
  const contenders: Contender[] = [];
  try {
    contenders.push(await contender(base, exportCommit(root, base, scratch)), await contender('checkout', root));
    const [a, b] = contenders as [Contender, Contender];
    for (let round = 0; round <= rounds; round++) {
      for (const c of pairOrder(round, a, b)) await runRound(c, round);
    }
    const show = (list: readonly number[]) => list.map((v) => v.toFixed(0)).join(' ');
    for (const c of [a, b])
      console.log(
        `${c.name}: CPU us/request ${show(c.cpuUsPerRequest)}, median ${upperMedian(c.cpuUsPerRequest).toFixed(1)}`,
      );
    console.log(
      `${pairRatiosText(a.cpuUsPerRequest, b.cpuUsPerRequest)} (${rounds} rounds of ${pairs * 2} requests each)`,
    );
  } finally {
    for (const c of contenders) await c.process.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main(values.base);
