/**
 * Oracle frames exactly as the simulator broadcasts them (channel, type, market_id null, prices of
 * every market in wei strings, timestamp, tx_hash, block_number, log_index, worker_timestamp),
 * one per block, with each mark on a seeded random walk so that every frame asks the strategy
 * for a new price.
 */
const MARKETS = [
  { id: 1, mark: 65_000_000n }, // BTC, in units of 0.001 USD
  { id: 2, mark: 3_200_000n },
  { id: 3, mark: 150_000n },
  { id: 4, mark: 120n },
] as const;

/** 0.001 USD to wei (18 decimals). */
const toWei = (milli: bigint): string => `${milli}000000000000000`;

export function oracleFrames(count: number, seed = 1): string[] {
  let state = seed >>> 0;
  const random = (): number => {
    // mulberry32: deterministic, enough for a price walk.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const marks: bigint[] = MARKETS.map((m) => m.mark);
  const frames: string[] = [];
  const startSeconds = 1_795_000_000;
  for (let i = 0; i < count; i++) {
    const prices: string[] = [];
    for (const [k, market] of MARKETS.entries()) {
      // ±2 bps a block, never below 1.
      const step = (marks[k]! * BigInt(Math.round((random() - 0.5) * 4))) / 10_000n;
      marks[k] = marks[k]! + step > 0n ? marks[k]! + step : 1n;
      const index = marks[k] + (marks[k] * BigInt(Math.round((random() - 0.5) * 2))) / 10_000n;
      prices.push(`"${market.id}":{"mark_price":"${toWei(marks[k])}","index_price":"${toWei(index)}"}`);
    }
    const seconds = startSeconds + Math.floor(i / 5);
    const txHash = `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(64, '0').slice(-64)}`;
    frames.push(
      `{"channel":"oracle","type":"update","market_id":null,"data":{"prices":{${prices.join(',')}},"timestamp":${seconds}},` +
        `"tx_hash":"${txHash}","block_number":${i + 1},"log_index":0,"worker_timestamp":"${seconds}${String((i % 5) * 200).padStart(3, '0')}000000"}`,
    );
  }
  return frames;
}
