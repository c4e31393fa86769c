/**
 * Operations per second of a synchronous or asynchronous body, as the median of several timed
 * rounds after a warm-up: these machines are noisy, so single readings are not trusted.
 */
export interface RateOptions {
  readonly rounds?: number;
  readonly roundMs?: number;
  readonly warmupMs?: number;
}

export async function measureRate(body: (i: number) => unknown, options: RateOptions = {}): Promise<number> {
  const rounds = options.rounds ?? 5;
  const roundMs = options.roundMs ?? 400;
  await runFor(body, options.warmupMs ?? 200);
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) rates.push(await runFor(body, roundMs));
  return median(rates);
}

async function runFor(body: (i: number) => unknown, ms: number): Promise<number> {
  const start = process.hrtime.bigint();
  const limit = start + BigInt(Math.round(ms * 1e6));
  let count = 0;
  let now = start;
  while (now < limit) {
    for (let k = 0; k < 16; k++) {
      const out = body(count++);
      if (out instanceof Promise) await out;
    }
    now = process.hrtime.bigint();
  }
  return count / (Number(now - start) / 1e9);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
