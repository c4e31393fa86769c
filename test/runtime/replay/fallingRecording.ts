import { bookFrame, diff, oracleFrame, tradeFrame, type Level } from '../../../bench/lib/replay/synthRecording.js';
import { PUBLIC_SOURCE, RECORDED_CHANNELS } from '../../../src/runtime/recording/recordPublicFeeds.js';
import { RecordingWriter } from '../../../src/runtime/recording/recordingWriter.js';
import { VirtualTime } from '../../../src/testing/virtualTime.js';

export const FALLING_START = Date.UTC(2026, 5, 1);
/** Market 1's mid before and after the fall, in ticks of 0.1: 65,000.0 then 1 % lower, 64,350.0. */
const HIGH = 650_000;
const LOW = 643_500;
const FALL_FROM_MS = 12_000;
const FALL_MS = 5_000;
const SPAN_MS = 25_000;
/** Each recorded trade is a seller sweeping 20 USD under the mid: through a market maker's bid. */
const TRADE_UNDER = 200;

export interface FallingRecording {
  readonly frames: number;
  /** The price of every recorded trade, and every recorded mark, as the frames say them. */
  readonly tradePrices: ReadonlySet<string>;
  readonly marks: ReadonlySet<string>;
}

/** The mid at `at` ms into the recording: flat, a straight fall of 1 % over five seconds, flat again. */
function midAt(at: number): number {
  if (at <= FALL_FROM_MS) return HIGH;
  if (at >= FALL_FROM_MS + FALL_MS) return LOW;
  return HIGH - Math.round(((HIGH - LOW) * (at - FALL_FROM_MS)) / FALL_MS / 10) * 10;
}

/** 20 levels a side, 1 USD apart around the mid, 1 BTC each: deep enough for any execution. */
function bookAround(mid: number): { bids: Level[]; asks: Level[] } {
  const levels = (sign: number): Level[] =>
    Array.from({ length: 20 }, (_, i): Level => [mid + sign * (5 + i * 10), 100_000]);
  return { bids: levels(-1), asks: levels(1) };
}

/**
 * 25 seconds of market 1 through the recorder's writer: a book around the mid every 250 ms,
 * the oracle's mark at the mid every 200 ms and a seller sweeping 20 USD under it every 500 ms
 * (from the second second), while the mid stands at 65,000, falls 1 % from 12 s to 17 s and stands
 * at 64,350. A market maker bidding near the mid is filled long, then the mark and the trades fall
 * through any stop-loss of a few tens of basis points under its entry.
 */
export async function fallingRecording(dir: string): Promise<FallingRecording> {
  const time = new VirtualTime(FALLING_START);
  const writer = await RecordingWriter.open({
    dir,
    clock: time,
    description: {
      venue: { profile: 'mainnet', restUrl: 'https://synthetic.invalid', wsUrl: 'wss://synthetic.invalid/ws' },
      markets: [1],
      channels: [...RECORDED_CHANNELS],
    },
    limits: { segmentBytes: 64 * 1024 * 1024, segmentMs: 3_600_000, maxDiskBytes: 256 * 1024 * 1024 },
  });
  const tradePrices = new Set<string>();
  const marks = new Set<string>();
  writer.connected(PUBLIC_SOURCE, 1);
  let book = bookAround(HIGH);
  writer.frame(PUBLIC_SOURCE, bookFrame('snapshot', book.bids, book.asks, time.now()));
  let trade = 0;
  for (let at = 50; at <= SPAN_MS; at += 50) {
    await time.advanceTo(FALLING_START + at);
    const mid = midAt(at);
    if (at % 250 === 0) {
      const next = bookAround(mid);
      writer.frame(
        PUBLIC_SOURCE,
        bookFrame('update', diff(book.bids, next.bids), diff(book.asks, next.asks), time.now()),
      );
      book = next;
    }
    if (at % 200 === 0) {
      writer.frame(PUBLIC_SOURCE, oracleFrame(mid, time.now()));
      marks.add((mid / 10).toFixed(1));
    }
    if (at % 500 === 0 && at >= 2_000) {
      writer.frame(PUBLIC_SOURCE, tradeFrame(++trade, mid - TRADE_UNDER, 1_000, false, time.now()));
      tradePrices.add(((mid - TRADE_UNDER) / 10).toFixed(1));
    }
  }
  await writer.close();
  return { frames: writer.framesWritten, tradePrices, marks };
}
