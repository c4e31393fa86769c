import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { PerpbotError } from '../../src/core/perpbotError.js';
import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';
import { runPerpbot } from '../lib/replay/perpbotProcess.js';
import { synthRecording, type FrameRates } from '../lib/replay/synthRecording.js';

/** The replay figure's recording: one market at the live frame rate. */
const RATES: FrameRates = { book: 10, oracle: 5, trades: 5 };
const SCALES = {
  full: { hours: 1, spreads: [3, 4, 5, 6], requotes: [2, 3] },
  smoke: { hours: 0.5 / 60, spreads: [4], requotes: [3] },
} as const;
const TARGET_RATIO = 1.7;
const REPO = join(import.meta.dirname, '..', '..');

/**
 * sweep: the bundled market maker's params over the replay figure's one-hour recording, 8 variants
 * (spread_bps 3 to 6 by requote_bps 2 and 3), by `perpbot sweep` on every core, as aggregate
 * recording time over wall time. Baseline, in the same run: the same 8 variants as 8 `perpbot
 * replay` processes one after another, each with its own config (half before the sweep, half
 * after). Both are timed from the spawn to the exit, as a user waits for them; every variant's
 * report must be the same bytes both ways.
 */
export const sweep: FigureBench = {
  name: 'sweep',
  async run(scale: BenchScale): Promise<Figure> {
    const size = SCALES[scale];
    const dir = await mkdtemp(join(tmpdir(), 'perpbot-bench-sweep-'));
    try {
      const rec = join(dir, 'rec');
      const frames = await synthRecording(rec, size.hours, RATES);
      const variants = size.spreads.flatMap((spread) => size.requotes.map((requote) => ({ spread, requote })));
      const grid = `spread_bps=${size.spreads.join(',')};requote_bps=${size.requotes.join(',')}`;
      const base = await readFile(join(REPO, 'config', 'default.yaml'), 'utf8');
      // The baseline's replays half before the sweep and half after it, so load that comes and goes
      // on a shared machine falls on both sides alike.
      const half = Math.ceil(variants.length / 2);
      let sequentialMs = 0;
      const replays = async (from: number, to: number): Promise<void> => {
        for (let i = from; i < to; i++) sequentialMs += await singleReplay(dir, rec, base, i, variants[i]!);
      };
      await replays(0, half);
      const swept = await runPerpbot(['sweep', rec, '--params', grid, '--out', join(dir, 'sweep')]);
      await replays(half, variants.length);
      for (let i = 0; i < variants.length; i++)
        await sameReport(join(dir, `replay-v${i + 1}`, 'report.json'), join(dir, 'sweep', 'variants', `v${i + 1}`, 'report.json'));
      const spanMs = size.hours * 3_600_000 * variants.length;
      const value = spanMs / swept.wallMs;
      const baseline = spanMs / sequentialMs;
      return {
        name: 'sweep',
        value: Math.round(value),
        unit: 'x real time (aggregate)',
        baseline_name: `${variants.length} sequential perpbot replay processes`,
        baseline_value: Math.round(baseline),
        target: `>= ${TARGET_RATIO}x the baseline (${availableParallelism()} cores)`,
        target_met: value >= TARGET_RATIO * baseline,
        notes: {
          variants: variants.length,
          'recording frames': frames,
          'recording hours': Number(size.hours.toFixed(3)),
          'sweep wall s': Number((swept.wallMs / 1000).toFixed(2)),
          'sequential replays wall s': Number((sequentialMs / 1000).toFixed(2)),
          'x the baseline': Number((value / baseline).toFixed(2)),
          workers: `one per core (${availableParallelism()})`,
          'reports identical': 'yes (every variant, sweep against its single replay)',
        },
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** One variant by `perpbot replay` with a config of its own: the wall time from spawn to exit. */
async function singleReplay(
  dir: string,
  rec: string,
  base: string,
  index: number,
  v: { readonly spread: number; readonly requote: number },
): Promise<number> {
  const config = parseDocument(base);
  config.setIn(['strategies', 0, 'params', 'spread_bps'], v.spread);
  config.setIn(['strategies', 0, 'params', 'requote_bps'], v.requote);
  const path = join(dir, `v${index + 1}.yaml`);
  await writeFile(path, config.toString());
  return (await runPerpbot(['replay', rec, '--config', path, '--out', join(dir, `replay-v${index + 1}`)])).wallMs;
}

async function sameReport(single: string, swept: string): Promise<void> {
  if ((await readFile(single, 'utf8')) !== (await readFile(swept, 'utf8')))
    throw new PerpbotError(`sweep: ${swept} differs from the single replay's ${single}`, {
      code: 'BENCH_FIGURE_RECORD',
      hints: ['a sweep must give each variant the report perpbot replay gives it, byte for byte'],
    });
}
