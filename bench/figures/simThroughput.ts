import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';
import { median } from '../lib/measureRate.js';
import { measureThroughput, type RoundReading } from '../lib/throughput/simThroughputRun.js';

const TARGET_RATE = 3_000;
const TARGET_RATIO = 2;
const SCALES = {
  full: { warmupPairs: 1_500, pairsPerRound: 4_000, rounds: 5, connections: 8, lag: 32, bare: true },
  smoke: { warmupPairs: 0, pairsPerRound: 40, rounds: 1, connections: 4, lag: 8, bare: true },
} as const;

/**
 * sim_throughput: signed requests per second `npm run sim` serves on its one core, as
 * place-then-cancel pairs over keep-alive HTTP, every permit's signature recovered and every nonce
 * checked, the requests pre-signed and sent by another process. Limit: a bare node:http server
 * that only parses the body and recovers one signature natively, under the same requests.
 */
export const simThroughput: FigureBench = {
  name: 'sim_throughput',
  async run(scale: BenchScale): Promise<Figure> {
    const options = SCALES[scale];
    const readings = await measureThroughput(options);
    const simRate = median(readings.sim.map((r) => r.rate));
    const bareRate = median(readings.bare.map((r) => r.rate));
    const us = (rate: number) => Number((1e6 / rate).toFixed(1));
    return {
      name: 'sim_throughput',
      value: Math.round(simRate),
      unit: 'signed requests/s',
      limit_name: 'bare node:http server: JSON.parse + one native signature recovery per request',
      limit_value: Math.round(bareRate),
      target: `>= ${TARGET_RATE.toLocaleString('en')} signed requests/s and within ${TARGET_RATIO}x of the limit`,
      target_met: simRate >= TARGET_RATE && bareRate / simRate <= TARGET_RATIO,
      notes: {
        'place-cancel pairs/s': Math.round(simRate / 2),
        'sim us/request (wall)': us(simRate),
        'sim CPU us/request': cpu(readings.sim, 'us'),
        'sim CPU share of a core': cpu(readings.sim, 'share'),
        'bare us/request (wall)': us(bareRate),
        'bare CPU us/request': cpu(readings.bare, 'us'),
        'bare CPU share of a core': cpu(readings.bare, 'share'),
        'requests per CPU-second sim / bare': perCpuSecond(readings.sim, readings.bare),
        'load client CPU share of a core (max)': Number(
          Math.max(...readings.sim.map((r) => r.clientCpuShare), ...readings.bare.map((r) => r.clientCpuShare)).toFixed(
            2,
          ),
        ),
        'sim rounds requests/s': readings.sim.map((r) => Math.round(r.rate)).join(' / '),
        'bare rounds requests/s': readings.bare.map((r) => Math.round(r.rate)).join(' / '),
        'requests per round': readings.sim[0]?.requests ?? 0,
        'rounds (median), alternated': options.rounds,
        connections: `${options.connections} keep-alive, one request in flight each`,
        'resting orders (cancel lag)': options.lag,
        'refused requests': 0,
        simulator: 'npm run sim --block-ms 0 --rest-requests-per-10s 0, own process',
      },
    };
  },
};

/** What each server would serve with a core to itself: the rate its CPU per request allows. */
function perCpuSecond(sim: readonly RoundReading[], bare: readonly RoundReading[]): string {
  const rate = (r: readonly RoundReading[]) => {
    const us = r.map((x) => x.cpuUsPerRequest).filter((v): v is number => v !== undefined);
    return us.length === 0 ? 'n/a' : String(Math.round(1e6 / median(us)));
  };
  return `${rate(sim)} / ${rate(bare)}`;
}

function cpu(readings: readonly RoundReading[], what: 'us' | 'share'): number | string {
  const values = readings
    .map((r) => (what === 'us' ? r.cpuUsPerRequest : r.cpuShare))
    .filter((v): v is number => v !== undefined);
  if (values.length === 0) return 'n/a';
  return what === 'us' ? Number(median(values).toFixed(1)) : Number(median(values).toFixed(2));
}
