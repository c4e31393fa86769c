/**
 * npm run bench: every figure beside its baseline and/or limit, measured in one run on this machine;
 * prints a table and upserts the figures into bench/results.json. Pass figure names to run a subset
 * (`npm run bench -- tick_to_trade sim_throughput`).
 */
import type { Figure } from './lib/figure.js';
import { machineDescription } from './lib/resultsFile.js';
import { runFigures } from './lib/runFigures.js';
import { ALL_FIGURES as ALL } from './figures/index.js';

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !ALL.some((b) => b.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown figure(s): ${unknown.join(', ')}; known: ${ALL.map((b) => b.name).join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  const selected = wanted.length === 0 ? ALL : ALL.filter((b) => wanted.includes(b.name));
  const path = new URL('./results.json', import.meta.url);
  const figures = await runFigures(selected, 'full', path, (line) => process.stderr.write(`${line}\n`));
  printTable(figures);
  console.log(`\nmachine: ${machineDescription()}\nwrote bench/results.json`);
}

function printTable(figures: readonly Figure[]): void {
  const rows = figures.map((f) => ({
    figure: f.name,
    value: `${f.value} ${f.unit}${f.p99_us === undefined ? '' : `, p99 ${f.p99_us} us`}`,
    baseline: f.baseline_value === undefined ? '' : `${f.baseline_value} (${f.baseline_name ?? ''})`,
    'x baseline': f.baseline_value === undefined ? '' : (f.value / f.baseline_value).toFixed(2),
    limit: f.limit_value === undefined ? '' : `${f.limit_value} (${f.limit_name ?? ''})`,
    // Larger over smaller: how far off its limit a figure is, whether lower (latency) or higher (rates) is better.
    'x off limit':
      f.limit_value === undefined
        ? ''
        : (Math.max(f.value, f.limit_value) / Math.min(f.value, f.limit_value)).toFixed(2),
    target: f.target ?? 'none',
    met: f.target_met === undefined ? '-' : f.target_met ? 'yes' : 'NO',
  }));
  console.table(rows);
  for (const f of figures) {
    if (f.notes === undefined) continue;
    console.log(
      `${f.name}: ${Object.entries(f.notes)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')}`,
    );
  }
}

await main();
