import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';
import { captureSimFrames } from '../lib/captureSimFrames.js';
import { ingestPipeline } from '../lib/ingestPipeline.js';
import { interleavedRates } from '../lib/interleavedRates.js';

const FRAMES = { full: 3_000, smoke: 60 } as const;
const TARGET_RATE = 200_000;
const TARGET_RATIO = 3;

/**
 * ws_ingest: oracle and orderbook frames per second from raw text to a typed value delivered to a
 * strategy's RxJS subscriber, beside bare JSON.parse of the same frames. The frames are the
 * simulator's own, captured from a running simulator.
 */
export const wsIngest: FigureBench = {
  name: 'ws_ingest',
  async run(scale: BenchScale): Promise<Figure> {
    const frames = await captureSimFrames(FRAMES[scale]);
    const oracle = frames.filter((f) => f.includes('"channel":"oracle"'));
    const books = frames.filter((f) => f.includes('"channel":"orderbook"'));
    const pipeline = ingestPipeline();
    // Every frame must make it through once before timing: a frame the client would drop would
    // make the figure look better than the real path.
    for (const f of frames) pipeline.feed(f);
    if (pipeline.delivered() !== frames.length)
      throw new Error(`ws_ingest: ${pipeline.delivered()} of ${frames.length} frames reached a subscriber`);

    const n = frames.length;
    const rates = await interleavedRates({
      ingest: (i) => pipeline.feed(frames[i % n]!),
      parse: (i) => JSON.parse(frames[i % n]!),
      oracle: (i) => pipeline.feed(oracle[i % oracle.length]!),
      books: (i) => pipeline.feed(books[i % books.length]!),
    }, scale === 'full' ? {} : { passes: 1, roundMs: 10, warmupMs: 15 });
    const { ingest: ingestRate, parse: parseRate, oracle: oracleRate, books: bookRate } = rates;
    const avgBytes = Math.round(frames.reduce((s, f) => s + f.length, 0) / n);
    return {
      name: 'ws_ingest',
      value: Math.round(ingestRate),
      unit: 'frames/s',
      baseline_name: 'JSON.parse of the same frames',
      baseline_value: Math.round(parseRate),
      target: `>= ${TARGET_RATE.toLocaleString('en')} frames/s and within ${TARGET_RATIO}x of the baseline`,
      target_met: ingestRate >= TARGET_RATE && parseRate / ingestRate <= TARGET_RATIO,
      notes: {
        frames: n,
        'oracle frames': oracle.length,
        'orderbook frames': books.length,
        'avg frame bytes': avgBytes,
        'us/frame': Number((1e6 / ingestRate).toFixed(2)),
        'JSON.parse us/frame': Number((1e6 / parseRate).toFixed(2)),
        'oracle only frames/s': Math.round(oracleRate),
        'orderbook only frames/s': Math.round(bookRate),
      },
    };
  },
};
