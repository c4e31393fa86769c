import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StudySpan } from './sweepPlan.js';
import type { Variant } from './sweepVariants.js';

/**
 * Where each variant's files go in a study directory, so a script or a batch engine finds them by
 * the variant's id alone: `variants/<id>/params.json` (the values this variant gives the swept
 * params) and `variants/<id>/report.json` (its replay's report, the bytes `perpbot replay` writes).
 * A variant replayed over several recordings or walk-forward spans has one report per replay,
 * `report.<recording>.<span>.json`.
 */
export function variantReportPath(variant: string, span: StudySpan, spansPerVariant: number): string {
  const name = spansPerVariant === 1 ? 'report.json' : `report.${span.recording}.${span.id}.json`;
  return join('variants', variant, name);
}

/** Each variant's `params.json` under `out` (written again alike when a sweep goes on or shards merge). */
export function writeVariantParams(out: string, variants: readonly Variant[]): void {
  for (const variant of variants) {
    const dir = join(out, 'variants', variant.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'params.json'), `${JSON.stringify(variant.params, null, 2)}\n`);
  }
}
