import { performance } from 'node:perf_hooks';
import type { ActionSender } from '../../src/engine/sending/actionSender.js';
import { signPermit } from '../../src/protocol/permit.js';
import { startSim } from '../../src/sim/startSim.js';
import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';
import { benchEngine, restingBid } from '../lib/benchEngine.js';
import { median, measureRate, percentile } from '../lib/measureRate.js';
import { benchAccount } from '../lib/simAccount.js';

/**
 * Engine and signing rounds, alternated. Fifteen rather than five: the first rounds after the warm
 * one still run partly unoptimised code, and with five the median was one of them.
 */
const SCALES = {
  full: { intentsPerRound: 2_000, burst: 200, rounds: 15, signMs: 400 },
  smoke: { intentsPerRound: 100, burst: 50, rounds: 1, signMs: 20 },
} as const;
type Scale = (typeof SCALES)[BenchScale];
const TARGET_OVERHEAD_US = 50;

/**
 * engine_overhead: intents per second through the whole engine (pre-trade checks, guards, nonce
 * allocation, hashing, signing, tracking, outcome) with a sender that answers at once in-process,
 * beside the bare permit signing rate of the same signer. The difference per intent is the
 * engine's own cost beyond signing. The simulator is used only for the engine's start-up reads.
 */
export const engineOverhead: FigureBench = {
  name: 'engine_overhead',
  async run(scale: BenchScale): Promise<Figure> {
    const size: Scale = SCALES[scale];
    const sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    try {
      const who = await benchAccount(sim);
      // Each round gets a fresh engine so the order tracker starts empty: a long-lived engine
      // would carry thousands of never-cancelled orders and measure its own bookkeeping growth.
      const context = who.context;
      const sign = (i: number) =>
        signPermit(context, who.signer, {
          account: who.account,
          actionHash: `0x${(i & 0xffff).toString(16).padStart(64, '0')}`,
          nonceAnchor: 5n,
          nonceBitmap: i % 208,
          deadline: 1_900_000_000,
        });
      const rounds: RoundResult[] = [];
      const signRates: number[] = [];
      await engineRound(who, 'warm', size);
      await measureRate(sign, { rounds: 1, roundMs: size.signMs, warmupMs: size.signMs / 2 });
      // Alternate engine rounds and signing rounds so that load from elsewhere hits both alike.
      for (let r = 0; r < size.rounds; r++) {
        rounds.push(await engineRound(who, `r${r}`, size));
        signRates.push(await measureRate(sign, { rounds: 1, roundMs: size.signMs, warmupMs: 0 }));
      }
      const engineRate = median(rounds.map((r) => r.rate));
      const signRate = median(signRates);
      const usEngine = 1e6 / engineRate;
      const usSign = 1e6 / signRate;
      const overheadUs = usEngine - usSign;
      // Each engine round against the signing round right after it, so load that comes and goes
      // on a shared machine falls on both sides of a difference; the spread shows how steady it was.
      const pairedUs = rounds.map((r, i) => 1e6 / r.rate - 1e6 / (signRates[i] ?? Number.NaN)).sort((a, b) => a - b);
      return {
        name: 'engine_overhead',
        value: Math.round(engineRate),
        unit: 'intents/s',
        baseline_name: 'bare permit signing (signPermit, same signer)',
        baseline_value: Math.round(signRate),
        target: `engine overhead < ${TARGET_OVERHEAD_US} us per intent beyond signing`,
        target_met: overheadUs < TARGET_OVERHEAD_US,
        notes: {
          'engine us/intent': Number(usEngine.toFixed(1)),
          'signing us/permit': Number(usSign.toFixed(1)),
          'overhead us/intent': Number(overheadUs.toFixed(1)),
          'overhead us/intent, paired rounds median': Number(median(pairedUs).toFixed(1)),
          'overhead us/intent, paired rounds p25..p75': `${percentile(pairedUs, 25).toFixed(1)}..${percentile(pairedUs, 75).toFixed(1)}`,
          'first burst us/intent': Number(median(rounds.map((r) => r.firstBurstUs)).toFixed(1)),
          'last burst us/intent': Number(median(rounds.map((r) => r.lastBurstUs)).toFixed(1)),
          'intents per round': size.intentsPerRound,
          'burst size': size.burst,
          'rounds (median)': size.rounds,
        },
      };
    } finally {
      await sim.close();
    }
  },
};

interface RoundResult {
  readonly rate: number;
  /** µs per intent of the round's first and last burst: growth shows per-intent cost rising with the orders tracked. */
  readonly firstBurstUs: number;
  readonly lastBurstUs: number;
}

/** One fresh engine, `intentsPerRound` limit orders in bursts of `burst`. */
async function engineRound(
  who: Parameters<typeof benchEngine>[0],
  run: string,
  { intentsPerRound, burst }: Scale,
): Promise<RoundResult> {
  let orders = 0;
  const instant: ActionSender = {
    // A venue-shaped order id: the first 8 bytes carry the wide id (venue-facts).
    send: () => Promise.resolve({ orderId: `0x${(++orders * 2).toString(16).padStart(16, '0')}${'0'.repeat(48)}` }),
  };
  const engine = benchEngine(who, instant);
  await engine.start();
  let refused = 0;
  const burstUs: number[] = [];
  const started = performance.now();
  for (let done = 0; done < intentsPerRound; done += burst) {
    const burstStarted = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: burst }, (_, i) => engine.execute(restingBid(done + i, run))),
    );
    burstUs.push(((performance.now() - burstStarted) * 1000) / burst);
    refused += outcomes.filter((o) => o.type !== 'accepted').length;
  }
  const elapsedMs = performance.now() - started;
  await engine.stop();
  if (refused > 0)
    throw new Error(`engine_overhead: ${refused} intents were not accepted; the figure would be meaningless`);
  return {
    rate: (intentsPerRound * 1000) / elapsedMs,
    firstBurstUs: burstUs[0] ?? Number.NaN,
    lastBurstUs: burstUs[burstUs.length - 1] ?? Number.NaN,
  };
}
