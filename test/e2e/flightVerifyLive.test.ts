import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * `perpbot replay FLIGHT --verify` of flights recorded on the wall clock, as a user records them:
 * `perpbot start` on config/default.yaml with `recorder.enabled: true` (the embedded simulator,
 * its timers and the bot's real), then the replay. The bundled market maker (quote targets) and a
 * requoting strategy written against the public API as it stood before them (cancel and place,
 * under the old default of 5 actions a second, where placements wait on the rate limit) both
 * replay with 0 divergences, their strategies fed the recorded inputs (frames, order events,
 * outcomes) in the recorded order: each intent is given to the engine where the strategy handed it
 * over, and each action is admitted where the recorded engine admitted it.
 *
 * FLIGHT_RUN_MS: how long each bot runs (default 15 s; the figure is 120000).
 * FLIGHT_KEEP_DIR: a directory a flight that fails to verify is copied into, with its config.
 */
const RUN_MS = Number(process.env['FLIGHT_RUN_MS'] ?? 15_000);
const KEEP_DIR = process.env['FLIGHT_KEEP_DIR'];

function configText(dir: string, module: string, actionsPerSecond: number): string {
  return readFileSync(join(REPO_ROOT, 'config/default.yaml'), 'utf8')
    .replace('path: data/journal.sqlite', `path: ${JSON.stringify(join(dir, 'journal.sqlite'))}`)
    .replace('module: strategies/marketMaker.ts', `module: ${module}`)
    .replace(/max_actions_per_second: 40/, `max_actions_per_second: ${actionsPerSecond}`)
    .replace(/^recorder:\n {2}enabled: false/m, 'recorder:\n  enabled: true')
    .replace(/level: info/, 'level: warn')
    .replace(/pretty: auto/, 'pretty: false');
}

/** A project directory whose strategies/ re-export the bundled maker and the legacy one. */
function project(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `perpbot-flight-${name}-`));
  mkdirSync(join(dir, 'strategies'));
  const modules = {
    'marketMaker.ts': join(REPO_ROOT, 'strategies', 'marketMaker.ts'),
    'legacyMaker.ts': join(REPO_ROOT, 'test', 'e2e', 'support', 'legacyMakerStrategy.ts'),
  };
  for (const [file, target] of Object.entries(modules))
    writeFileSync(join(dir, 'strategies', file), `export { default } from ${JSON.stringify(target)};\n`);
  return dir;
}

/** Orders in the journal so far (0 while it does not exist yet or is being created). */
function journaledOrders(path: string): number {
  if (!existsSync(path)) return 0;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

async function recordFlight(dir: string, config: string): Promise<void> {
  const bot: RunningPerpbot = startPerpbotIn(['start', '--config', config], dir, {});
  const started = Date.now();
  // Quoting once its first order is journaled (the log is at warn); then the run proper. A start-up
  // slowed by a loaded machine (the strategy's type check) is waited for; one that never quotes fails here.
  const quoting = () => journaledOrders(join(dir, 'journal.sqlite')) > 0;
  while (!quoting() && bot.child.exitCode === null && Date.now() - started < 90_000)
    await new Promise((r) => setTimeout(r, 100));
  if (!quoting()) throw new Error(`the bot never quoted:\n${bot.output().slice(-3000)}`);
  await new Promise((r) => setTimeout(r, RUN_MS));
  bot.child.kill('SIGINT');
  expect(await bot.exited).toBe(0);
}

async function verify(dir: string, config: string): Promise<string> {
  const run = startPerpbotIn(['replay', join(dir, 'flight'), '--verify', '--config', config], dir, {});
  const code = await run.exited;
  if ((code !== 0 || !run.output().includes('all in the recorded order')) && KEEP_DIR !== undefined)
    cpSync(dir, join(KEEP_DIR, `${Date.now()}-${dir.split('/').at(-1)}`), { recursive: true });
  expect(code, `perpbot replay --verify exited ${code}:\n${run.output().slice(-3000)}`).toBe(0);
  return run.output();
}

describe('flight recordings made on the wall clock replay true with --verify', () => {
  const dirs: Record<string, string> = {};
  const configs: Record<string, string> = {};
  beforeAll(async () => {
    for (const [name, module, rate] of [
      ['bundled', 'strategies/marketMaker.ts', 40],
      ['legacy', 'strategies/legacyMaker.ts', 5],
    ] as const) {
      dirs[name] = project(name);
      configs[name] = join(dirs[name], 'config.yaml');
      writeFileSync(configs[name], configText(dirs[name], module, rate));
    }
    // Side by side: each with its own embedded simulator.
    await Promise.all(Object.keys(dirs).map((name) => recordFlight(dirs[name]!, configs[name]!)));
  }, RUN_MS + 150_000);
  afterAll(() => {
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  // Whether the strategies' inputs came in the recorded order is reported, not required: frames of
  // one socket read reach the live bot back to back (ws's default), the replay settles between them.
  // The two replays side by side, as their flights were recorded.
  it.concurrent.each([
    { name: 'bundled', inputsInOrder: false },
    { name: 'legacy', inputsInOrder: false },
  ])(
    'the $name market maker: every recorded intent replayed, 0 divergences',
    async ({ name, inputsInOrder }) => {
      const out = await verify(dirs[name]!, configs[name]!);
      const counts = /(\d+) intents recorded, (\d+) replayed/.exec(out);
      expect(Number(counts?.[1])).toBeGreaterThan(10);
      expect(counts?.[2]).toBe(counts?.[1]);
      expect(out).toContain('0 divergences');
      expect(out).toMatch(/strategy inputs: /);
      if (inputsInOrder)
        expect(out).toMatch(/strategy inputs: \d+ \(frames, order events, outcomes\), all in the recorded order/);
    },
    120_000,
  );
});
