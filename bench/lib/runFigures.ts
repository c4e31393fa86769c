import { PerpbotError } from '../../src/core/perpbotError.js';
import type { BenchScale, Figure, FigureBench } from './figure.js';
import { upsertFigure } from './resultsFile.js';

/**
 * Runs figures one after another and records each in the results file (`bench/results.json` for
 * `npm run bench`; a scratch file for the smoke test), after checking its record: a figure whose
 * record is unusable (a missing or non-finite value, a target with no verdict) fails the run as a
 * figure that throws does, so neither can pass unseen.
 */
export async function runFigures(
  figures: readonly FigureBench[],
  scale: BenchScale,
  resultsPath: URL,
  progress: (line: string) => void = () => {},
): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const bench of figures) {
    progress(`measuring ${bench.name}${scale === 'smoke' ? ' (smoke size)' : ''}...`);
    const measured = await bench.run(scale);
    for (const figure of Array.isArray(measured) ? measured : [measured]) {
      checkFigure(figure);
      // Upsert: figures measured elsewhere (soak_rss from npm run soak) stay in the file.
      upsertFigure(resultsPath, figure);
      out.push(figure);
    }
  }
  return out;
}

/** The fields the table and bench/results.json need, each of the right kind. */
export function checkFigure(figure: Figure): void {
  const problems: string[] = [];
  if (figure.name.length === 0) problems.push('no name');
  if (!Number.isFinite(figure.value)) problems.push(`value ${String(figure.value)} is not a finite number`);
  if (figure.unit.length === 0) problems.push('no unit');
  for (const key of ['baseline_value', 'limit_value', 'p99_us'] as const) {
    const value = figure[key];
    if (value !== undefined && !Number.isFinite(value)) problems.push(`${key} ${String(value)} is not a finite number`);
  }
  if ((figure.target === undefined) !== (figure.target_met === undefined))
    problems.push('a target needs a verdict (target_met) and a verdict a target');
  for (const [key, value] of Object.entries(figure.notes ?? {}))
    if (typeof value === 'number' && Number.isNaN(value)) problems.push(`note "${key}" is NaN`);
  if (problems.length > 0)
    throw new PerpbotError(
      `bench figure ${figure.name || '(unnamed)'} has an unusable record: ${problems.join('; ')}`,
      {
        code: 'BENCH_FIGURE_RECORD',
        details: { figure: JSON.stringify(figure).slice(0, 1_000) },
      },
    );
}
