// The order vitest starts the test files in: each project's longest first. vitest runs the
// projects one after the other (every e2e file, then every unit file) and, without its cache (CI's
// clean clone), in no useful order within one, so the unit files that take 10 to 30 s of CPU
// (the bench smoke) could start last and run alone at the end. Longest first (LPT) keeps the
// workers busy to the end. The projects stay one after the other: the e2e files run in worker
// processes and the unit files in worker threads, and mixing them made the pool stop one kind of
// worker to start the other again and again, each new worker loading every module afresh (the
// suite's import time went from about 65 to 167 s). A file's length is its last duration in
// vitest's cache when there is one (a local run), else the hint in tools/testDurations.json, else
// a guess by project.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const HINTS = JSON.parse(readFileSync(join(import.meta.dirname, 'testDurations.json'), 'utf8')) as Record<
  string,
  number
>;
const GUESS_MS: Record<string, number> = { e2e: 1_500, unit: 100 };
// The e2e files first: they are the longest, and most of their time is spent waiting on their bots.
const PROJECT_ORDER = ['e2e', 'unit'];

export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = new Map(files.map((spec) => [spec, this.expectedMs(spec)]));
    const rank = (spec: TestSpecification): number => PROJECT_ORDER.indexOf(spec.project.name);
    return Promise.resolve(
      [...files].sort((a, b) => rank(a) - rank(b) || (weights.get(b) ?? 0) - (weights.get(a) ?? 0)),
    );
  }

  private expectedMs(spec: TestSpecification): number {
    const path = relative(this.ctx.config.root, spec.moduleId);
    const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
    return cached?.duration ?? HINTS[path] ?? GUESS_MS[spec.project.name] ?? 0;
  }
}
