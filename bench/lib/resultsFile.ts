import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Figure } from './figure.js';

/** Same description as `npm run bench` writes, so both commands name the machine alike. */
export function machineDescription(): string {
  return `${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

/**
 * Adds or replaces one figure in bench/results.json and keeps every other figure as it was (the
 * soak runs apart from `npm run bench`, for minutes, and must not erase the other figures).
 */
export function upsertFigure(path: URL, figure: Figure): void {
  let figures: unknown[] = [];
  if (existsSync(path)) {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { figures?: unknown }).figures)) {
      figures = (parsed as { figures: unknown[] }).figures;
    }
  }
  const others = figures.filter(
    (f) => !(typeof f === 'object' && f !== null && (f as { name?: unknown }).name === figure.name),
  );
  writeFileSync(path, `${JSON.stringify({ machine: machineDescription(), figures: [...others, figure] }, null, 2)}\n`);
}
