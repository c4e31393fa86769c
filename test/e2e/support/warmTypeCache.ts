import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkStrategyTypes } from '../../../src/runtime/cli/checkStrategyTypes.js';
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
 * machine), so the strategies the e2e files start are checked here once, in one process (each
 * check after the first reuses the files the first one parsed), into the cache the spawned bots
 * read: each writes the same re-export, `export { default } from "<target>"`, in a folder of
 * its own under the temporary directory, which is the same key wherever it is. The check itself,
 * and a start that misses the cache, stay tested: test/e2e/firstHour.test.ts and cliStart.test.ts
 * start strategies no run has seen, and fleetPrometheus.test.ts a hit. A strategy that fails here
 * is left for its test to report.
 */
export default async function warmTypeCache(): Promise<void> {
  // The environment a spawned bot gets: no PERPBOT_ variables (test/e2e/support/spawnPerpbot.ts).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  const quiet = { info: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-warm-types-'));
  try {
    mkdirSync(join(dir, 'strategies'));
    for (const [index, target] of REEXPORTED.entries()) {
      writeFileSync(join(dir, 'strategies', `s${index}.ts`), `export { default } from ${JSON.stringify(target)};\n`);
      await check(`strategies/s${index}.ts`, dir, env, quiet);
    }
    // The repository's own strategies, started from the repository root.
    await check('strategies/marketMaker.ts', REPO_ROOT, env, quiet);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
