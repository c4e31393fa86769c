import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { typeCheckStrategy } from '../../../src/runtime/cli/commands/typeCheckStrategy.js';
import { StrategyTypeCache } from '../../../src/runtime/cli/strategyTypeCache.js';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** The test strategies the e2e files re-export from a strategies/ folder of their own and start spawned. */
const TARGETS = [
  'journalProbeStrategy.ts',
  'printingStrategy.ts',
  'fillCountingTaker.ts',
  'legacyMakerStrategy.ts',
  'serviceProbeStrategy.ts',
]
  .map((name) => join(import.meta.dirname, name))
  // flightVerifyLive.test.ts re-exports the repository's market maker too.
  .concat(join(REPO_ROOT, 'strategies', 'marketMaker.ts'));

/**
 * The e2e project's global set-up: every spawned `perpbot start` type-checks its strategy first
 * (src/runtime/cli/checkStrategyTypes.ts), and a check is seconds of CPU (minutes on a loaded
 * machine), so the strategies the e2e files start are checked here, into the cache the spawned
 * bots read: each writes the same re-export, `export { default } from "<target>"`, in a folder of
 * its own under the temporary directory, which is the same key wherever it is. The targets are
 * checked together, as one module re-exporting each of them, in one program: a check's cost is
 * mostly the checker reading perpbot's, zod's and rxjs's types, which one program does once (one
 * check of six targets: about 11 s of CPU, against 27 s for six checks one after the other, and the
 * set-up runs before any test starts). When they pass together, each re-export passes (the same
 * options, the same targets), and its pass is kept with every file the check read. When something
 * fails, each target is checked alone, and one that fails is left for its test to report. The
 * check itself, and a start that misses the cache, stay tested: test/e2e/firstHour.test.ts and
 * cliStart.test.ts start strategies no run has seen, and fleetPrometheus.test.ts a hit.
 */
export default function warmTypeCache(): void {
  // The environment a spawned bot gets: no PERPBOT_ variables (test/e2e/support/spawnPerpbot.ts).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  const cache = StrategyTypeCache.open(env);
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-warm-types-'));
  try {
    mkdirSync(join(dir, 'strategies'));
    const reexports = TARGETS.map((target, index) => {
      const file = join(dir, 'strategies', `s${index}.ts`);
      writeFileSync(file, `export { default } from ${JSON.stringify(target)};\n`);
      return file;
    });
    // A later run on the same machine: nothing changed since, nothing to check.
    if (reexports.every((file) => passedBefore(cache, file))) return;
    const together = join(dir, 'strategies', 'all.ts');
    writeFileSync(together, TARGETS.map((t, i) => `export { default as s${i} } from ${JSON.stringify(t)};\n`).join(''));
    const all = typeCheckStrategy(together);
    for (const file of reexports) {
      const result = all.ok ? all : typeCheckStrategy(file);
      const key = cache.keyOf(file);
      // Not the set-up's own files, which go with its folder: a re-export's text is in its key.
      const read = result.files.filter((path) => !path.startsWith(dir + sep));
      if (result.ok && key !== undefined) cache.remember(key, file, read);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function passedBefore(cache: StrategyTypeCache, file: string): boolean {
  const key = cache.keyOf(file);
  return key !== undefined && cache.passed(key);
}
