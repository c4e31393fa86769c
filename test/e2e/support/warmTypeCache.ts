import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { checkStrategyTypes } from '../../../src/runtime/cli/checkStrategyTypes.js';
import { StrategyTypeCache } from '../../../src/runtime/cli/strategyTypeCache.js';
import type { NonTradingConfig } from '../../../src/runtime/config/configSchema.js';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** The test strategies the e2e files re-export from a strategies/ folder of their own and start spawned. */
const REEXPORTED = [
  'journalProbeStrategy.ts',
  'printingStrategy.ts',
  'fillCountingTaker.ts',
  'legacyMakerStrategy.ts',
  'serviceProbeStrategy.ts',
  // cliStart.test.ts starts it through npm start's command line.
  'faultyStrategy.ts',
]
  .map((name) => join(import.meta.dirname, name))
  // flightVerifyLive.test.ts re-exports the repository's market maker too.
  .concat(join(REPO_ROOT, 'strategies', 'marketMaker.ts'));

/**
 * The e2e project's global set-up: every spawned `perpbot start` type-checks its strategy first
 * (src/runtime/cli/checkStrategyTypes.ts), and a check is seconds of CPU (minutes on a loaded
 * machine), so the strategies the e2e files start are checked here once, in one process (the
 * re-exports together: checkTogether), into the cache the spawned bots read: each writes the
 * same re-export, `export { default } from "<target>"`, in a folder of its own under the
 * temporary directory, which is the same key wherever it is. The check itself,
 * and a start that misses the cache, stay tested: test/e2e/firstHour.test.ts and cliStart.test.ts
 * start strategies no run has seen, and fleetPrometheus.test.ts a hit. A strategy that fails here
 * is left for its test to report.
 */
export default async function warmTypeCache(): Promise<void> {
  // The environment a spawned bot gets: no PERPBOT_ variables (test/e2e/support/spawnPerpbot.ts).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  const quiet = { info: () => undefined };
  const cache = StrategyTypeCache.open(env);
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-warm-types-'));
  try {
    mkdirSync(join(dir, 'strategies'));
    const reexports = REEXPORTED.map((target, index) => {
      const file = join(dir, 'strategies', `s${index}.ts`);
      writeFileSync(file, `export { default } from ${JSON.stringify(target)};\n`);
      return file;
    });
    const missing = reexports.filter((file) => {
      const key = cache.keyOf(file);
      return key !== undefined && !cache.passed(key);
    });
    if (!(await checkTogether(missing, dir, cache)))
      for (const file of missing) await check(relative(dir, file), dir, env, quiet);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The re-exports type-checked in one program, so that zod's, RxJS's and perpbot's types are
 * resolved once for all of them (a program each, as a start checks its strategies, took about
 * three times the CPU: some 15 s on a machine without the cache, as CI is). Each is remembered as
 * a start would remember it, with every file that program read outside the temporary folder (more
 * than its own: only more cautious). No test strategy declares anything global, so passing
 * together is passing alone. False when any has a problem: then each is checked alone, as its
 * start would check it, and a failing one leaves the others warm.
 */
async function checkTogether(files: readonly string[], dir: string, cache: StrategyTypeCache): Promise<boolean> {
  if (files.length === 0) return true;
  const all = join(dir, 'strategies', 'all.ts');
  writeFileSync(all, files.map((file) => `import ${JSON.stringify(`./${basename(file)}`)};\n`).join(''));
  const { typeCheckStrategy } = await import('../../../src/runtime/cli/commands/typeCheckStrategy.js');
  const result = typeCheckStrategy(all);
  if (!result.ok) return false;
  const read = result.files.filter((file) => !resolve(file).startsWith(resolve(dir) + sep));
  for (const file of files) cache.remember(cache.keyOf(file)!, file, read);
  return true;
}

async function check(
  module: string,
  cwd: string,
  env: Record<string, string | undefined>,
  log: { info: () => undefined },
): Promise<void> {
  const strategies = [{ name: 'warm', module, markets: [1], params: {} }] as unknown as NonTradingConfig['strategies'];
  try {
    await checkStrategyTypes({ strategies }, cwd, env, log);
  } catch {
    // Its test starts it and reports why.
  }
}
