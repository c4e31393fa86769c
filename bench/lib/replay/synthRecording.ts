import { PUBLIC_SOURCE, RECORDED_CHANNELS } from '../../../src/runtime/recording/recordPublicFeeds.js';
import { RecordingWriter } from '../../../src/runtime/recording/recordingWriter.js';
import { VirtualTime } from '../../../src/testing/virtualTime.js';

/** Frames a second of each public channel of one market, as the synthetic recording sends them. */
export interface FrameRates {
  readonly book: number;
  readonly oracle: number;
  readonly trades: number;
}

/** Levels a side, 1 dollar apart (BTC, market 1: tick 0.1, step 0.00001). */
const DEPTH = 20;
const MARKET = 1;
/** Levels a side whose size changes in each update (near the touch more often). */
const CHANGED_LEVELS = 2;

/**
 * Writes `hours` of a one-market recording (market 1) through the recorder's writer, stamped by a
 * virtual clock: an orderbook snapshot, then book updates (the changed levels, absolute, 0 deletes),
 * oracle frames (integer wei) and trades at the touch, at `rates`, on a seeded random walk of the
 * mid (±1 bp a step). The frames have the venue's shapes (venue-wire.md §3).
 */
export async function synthRecording(dir: string, hours: number, rates: FrameRates, seed = 7): Promise<number> {
  const startMs = Date.UTC(2026, 5, 1);
  const time = new VirtualTime(startMs);
  const writer = await RecordingWriter.open({
    dir,
    clock: time,
    description: {
      venue: { profile: 'mainnet', restUrl: 'https://synthetic.invalid', wsUrl: 'wss://synthetic.invalid/ws' },
      markets: [MARKET],
      channels: [...RECORDED_CHANNELS],
    },
    limits: { segmentBytes: 256 * 1024 * 1024, segmentMs: 24 * 3_600_000, maxDiskBytes: 4 * 1024 * 1024 * 1024 },
  });
  const random = mulberry32(seed);
  let midTicks = 650_000; // 65,000.0
  let book = levelsAround(midTicks, random);
  writer.connected(PUBLIC_SOURCE, 1);
  writer.frame(PUBLIC_SOURCE, bookFrame('snapshot', book.bids, book.asks, time.now()));
  const events = schedule(startMs, hours * 3_600_000, rates);
  let trade = 0;
  for (const event of events) {
    await time.advanceTo(event.t);
    if (event.kind === 'oracle') {
      writer.frame(PUBLIC_SOURCE, oracleFrame(midTicks, event.t));
    } else if (event.kind === 'trades') {
      // Mostly at the touch; now and then a sweep a few levels deep (so quotes away from the touch fill too).
      const buy = random() < 0.5;
      const depth = 5 + 10 * Math.floor(random() ** 3 * DEPTH);
      const base = Math.round(midTicks / 10) * 10;
      const price = buy ? base + depth : base - depth;
      writer.frame(PUBLIC_SOURCE, tradeFrame(++trade, price, 1 + Math.floor(random() * 50), buy, event.t));
    } else {
      midTicks += Math.round((random() - 0.5) * 2 * 65);
      const next = levelsAround(midTicks, random, book);
      writer.frame(PUBLIC_SOURCE, bookFrame('update', diff(book.bids, next.bids), diff(book.asks, next.asks), event.t));
      book = next;
    }
  }
  await writer.close();
  return writer.framesWritten;
}

/** A book level in market 1's units: price in ticks (0.1), size in steps (0.00001). */
export type Level = readonly [ticks: number, steps: number];

/**
 * The book around the mid: levels already shown keep their size, new ones get a random size, and
 * a few levels change size (about what a venue update carries: a handful of levels, not the book).
 */
function levelsAround(
  midTicks: number,
  random: () => number,
  before?: { bids: Level[]; asks: Level[] },
): { bids: Level[]; asks: Level[] } {
  const base = Math.round(midTicks / 10) * 10;
  const side = (prices: number[], was: readonly Level[] | undefined): Level[] => {
    const sizes = new Map(was ?? []);
    const out = prices.map((ticks): Level => [ticks, sizes.get(ticks) ?? 10 + Math.floor(random() * 200)]);
    for (let i = 0; i < CHANGED_LEVELS; i++) {
      const at = Math.floor(random() * random() * out.length);
      out[at] = [out[at]![0], 10 + Math.floor(random() * 200)];
    }
    return out;
  };
  return {
    bids: side(
      Array.from({ length: DEPTH }, (_, i) => base - 5 - i * 10),
      before?.bids,
    ),
    asks: side(
      Array.from({ length: DEPTH }, (_, i) => base + 5 + i * 10),
      before?.asks,
    ),
  };
}

/** The levels of `next` that differ from `before`, and those of `before` gone (quantity 0). */
export function diff(before: readonly Level[], next: readonly Level[]): Level[] {
  const was = new Map(before);
  const now = new Map(next);
  const out: Level[] = next.filter(([ticks, steps]) => was.get(ticks) !== steps);
  for (const [ticks] of before) if (!now.has(ticks)) out.push([ticks, 0]);
  return out;
}

function schedule(
  startMs: number,
  spanMs: number,
  rates: FrameRates,
): { t: number; kind: 'book' | 'oracle' | 'trades' }[] {
  const out: { t: number; kind: 'book' | 'oracle' | 'trades' }[] = [];
  for (const kind of ['book', 'oracle', 'trades'] as const) {
    const every = 1_000 / rates[kind];
    for (let at = every; at <= spanMs; at += every) out.push({ t: startMs + Math.round(at), kind });
  }
  return out.sort((a, b) => a.t - b.t);
}

const price = (ticks: number): string => (ticks / 10).toFixed(1);
const size = (steps: number): string => (steps / 100_000).toFixed(5);
const ns = (t: number): string => `${t}000000`;

/** An orderbook frame of market 1 as the venue sends it (venue-wire.md §3). */
export function bookFrame(
  type: 'snapshot' | 'update',
  bids: readonly Level[],
  asks: readonly Level[],
  t: number,
): string {
  const levels = (side: readonly Level[]) =>
    side.map(([ticks, steps]) => ({ price: price(ticks), quantity: size(steps), order_count: steps > 0 ? 1 : 0 }));
  return JSON.stringify({
    method: type,
    channel: 'orderbook',
    type,
    market_id: String(MARKET),
    data: { market_id: MARKET, bids: levels(bids), asks: levels(asks) },
    ...(type === 'snapshot' ? { level_count: bids.length + asks.length } : { checksum: 0 }),
    block_number: Math.floor(t / 100),
    log_index: 0,
    worker_timestamp: ns(t),
  });
}

/** An oracle frame of market 1: mark and index at `midTicks`, integer wei on the wire. */
export function oracleFrame(midTicks: number, t: number): string {
  const wei = `${BigInt(midTicks) * 10n ** 17n}`;
  return JSON.stringify({
    channel: 'oracle',
    type: 'update',
    market_id: null,
    worker_timestamp: ns(t),
    data: { prices: { [String(MARKET)]: { mark_price: wei, index_price: wei } }, timestamp: Math.floor(t / 1000) },
    tx_hash: `0x${t.toString(16).padStart(64, '0')}`,
    block_number: Math.floor(t / 100),
    log_index: 0,
  });
}

/** A trades frame of market 1: one trade of `steps` at `ticks`. */
export function tradeFrame(id: number, ticks: number, steps: number, buyAggressor: boolean, t: number): string {
  return JSON.stringify({
    channel: 'trades',
    type: 'update',
    market_id: MARKET,
    worker_timestamp: ns(t),
    data: {
      id: String(id),
      maker_order_id: String(id * 2),
      taker_order_id: String(id * 2 + 1),
      maker: '0x00000000000000000000000000000000000000a1',
      taker: '0x00000000000000000000000000000000000000b2',
      maker_side: buyAggressor ? 1 : 0,
      price: price(ticks),
      size: size(steps),
      fee_maker: '0',
      fee_taker: '0',
      fee_liquidation: '0',
    },
  });
}

/** A small seeded generator: the same recording every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
