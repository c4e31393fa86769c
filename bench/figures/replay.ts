import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { loadStrategies } from '../../src/runtime/bot/wiring/loadStrategies.js';
import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';
import { synthRecording, type FrameRates } from '../lib/replay/synthRecording.js';
import { timedReplay } from '../lib/replay/timedReplay.js';

/**
 * The venue's live rate on one market, as chosen (venue-facts and venue-wire give none): a book
 * update every 100 ms, an oracle price every 200 ms (a block), a trade every 200 ms: 20 frames a
 * second, about twice the simulator's default (docs/operations.md, recording size).
 */
const RATES: FrameRates = { book: 10, oracle: 5, trades: 5 };
/** One hour; the smoke run replays thirty seconds of the same recording's kind. */
const HOURS = { full: 1, smoke: 0.5 / 60 } as const;
const TARGET_SPEEDUP = 1_000;
const REPO = join(import.meta.dirname, '..', '..');

/**
 * replay: one hour of a synthetic one-market recording at the live frame rate, replayed through
 * the real engine with the bundled market maker (config/default.yaml) as `perpbot replay` runs it;
 * the figure is recording time over wall time.
 */
export const replay: FigureBench = {
  name: 'replay',
  async run(scale: BenchScale): Promise<Figure> {
    const dir = await mkdtemp(join(tmpdir(), 'perpbot-bench-replay-'));
    try {
      const frames = await synthRecording(join(dir, 'rec'), HOURS[scale], RATES);
      const config = await loadConfig({ path: join(REPO, 'config', 'default.yaml'), env: {}, acknowledgeMainnet: false });
      const hosted = await loadStrategies(config, REPO);
      const { report, failures, wallMs, cpuMs, spanMs } = await timedReplay(join(dir, 'rec'), config, hosted);
      const speedup = spanMs / wallMs;
      return {
        name: 'replay',
        value: Math.round(speedup),
        unit: 'x real time',
        target: `>= ${TARGET_SPEEDUP}x real time (one hour of one market at the live frame rate)`,
        target_met: speedup >= TARGET_SPEEDUP && failures === 0,
        notes: {
          'recording frames': frames,
          'frames/s recorded (book/oracle/trades)': `${RATES.book + RATES.oracle + RATES.trades} (${RATES.book}/${RATES.oracle}/${RATES.trades})`,
          'wall s': Number((wallMs / 1000).toFixed(2)),
          'CPU s': Number((cpuMs / 1000).toFixed(2)),
          'x real time per CPU second': Math.round(spanMs / cpuMs),
          'us per frame (wall)': Number(((wallMs * 1000) / frames).toFixed(1)),
          'orders placed': report.totals.orders,
          fills: report.totals.fills,
          'replay failures': failures,
        },
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
