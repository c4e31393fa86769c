// The order vitest starts the test files in: the longest first, whichever project they belong to.
// vitest's own order runs the projects one after the other (every e2e file, then every unit file),
// so the unit files that take 10 to 30 s of CPU started last and ran alone at the end while the
// e2e files, which wait on their bots, had left the cores half idle. Longest first (LPT) keeps the
// workers busy to the end. A file's length is its last duration in vitest's cache when there is
// one (a local run), else the hint in tools/testDurations.json (a clean clone: CI), else a guess
// by project.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const HINTS = JSON.parse(readFileSync(join(import.meta.dirname, 'testDurations.json'), 'utf8')) as Record<
  string,
  number
>;
const GUESS_MS: Record<string, number> = { e2e: 1_500, unit: 100 };

export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = new Map(files.map((spec) => [spec, this.expectedMs(spec)]));
    return Promise.resolve([...files].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0)));
  }

  private expectedMs(spec: TestSpecification): number {
    const path = relative(this.ctx.config.root, spec.moduleId);
    const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
    return cached?.duration ?? HINTS[path] ?? GUESS_MS[spec.project.name] ?? 0;
  }
}
