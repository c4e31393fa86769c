/**
 * npm run bench: every figure beside its baseline and/or limit, measured in one run on this machine,
 * each figure's bench in a fresh process of its own (`bench/lib/figureProcess.ts`); prints a table
 * and upserts the figures into bench/results.json. Pass figure names to run a subset
 * (`npm run bench -- tick_to_trade sim_throughput`); `--scale smoke` runs them at the smoke test's size,
 * `--results FILE` records them elsewhere. `--in-process` measures the named figures in
 * this process (what each figure's own process runs; `--figures-out FILE` hands them back).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Figure } from './lib/figure.js';
import { runFigureInOwnProcess } from './lib/figureProcess.js';
import { machineDescription } from './lib/resultsFile.js';
import { runFigures } from './lib/runFigures.js';
import { ALL_FIGURES as ALL } from './figures/index.js';

async function main(): Promise<void> {
  const { values, positionals: wanted } = parseArgs({
    options: {
      'in-process': { type: 'boolean' },
      'figures-out': { type: 'string' },
      scale: { type: 'string', default: 'full' },
      results: { type: 'string' },
    },
    allowPositionals: true,
  });
  const unknown = wanted.filter((name) => !ALL.some((b) => b.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown figure(s): ${unknown.join(', ')}; known: ${ALL.map((b) => b.name).join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  const scale = values.scale;
  if (scale !== 'full' && scale !== 'smoke') {
    process.stderr.write(`--scale must be full or smoke, got ${scale}\n`);
    process.exitCode = 2;
    return;
  }
  const selected = wanted.length === 0 ? ALL : ALL.filter((b) => wanted.includes(b.name));
  const path =
    values.results === undefined ? new URL('./results.json', import.meta.url) : pathToFileURL(values.results);
  if (values['in-process'] === true) {
    const measured = await runFigures(selected, scale, path, (line) => process.stderr.write(`${line}\n`));
    if (values['figures-out'] !== undefined)
      writeFileSync(values['figures-out'], JSON.stringify({ figures: measured }));
    return;
  }
  const figures: Figure[] = [];
  for (const bench of selected) figures.push(...(await runFigureInOwnProcess(bench.name, scale, fileURLToPath(path))));
  printTable(figures);
  console.log(`\nmachine: ${machineDescription()}\nwrote ${values.results ?? 'bench/results.json'}`);
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
