import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import { memoryIo, testKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot, until } from './support/journalBot.js';
import { startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

describe('a journal removed under a running bot (perpbot start spawned)', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: RunningPerpbot | undefined;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-vanished-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    bot?.child.kill('SIGKILL');
    await bot?.exited;
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is noticed within a second, stops opening, still cancels on stop, and keeps every record it could not journal', async () => {
    const keys = testKeys();
    const configPath = join(dir, 'perpbot.yaml');
    const journal = join(dir, 'journal.sqlite');
    writeFileSync(
      configPath,
      journalBotConfig(dir)
        .replace('shutdown: { open_orders: keep }', 'shutdown: { open_orders: cancel }')
        .replace('http://127.0.0.1:1', sim.restUrl)
        .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
    );
    expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
    const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000 });
    const open = async () => (await rest.openOrders({ account: keys.account.address, market_id: '1' })).orders.length;

    bot = startPerpbotIn(['start', '--config', configPath], dir, keys.env);
    await until(async () => (await open()) === 2, 60_000);
    for (const file of [journal, `${journal}-wal`, `${journal}-shm`]) rmSync(file, { force: true });
    const removedAt = Date.now();
    await until(() => (bot?.output() ?? '').includes('journal cannot be written'), 10_000);
    // Noticed by the once-a-second watch (plus the child's scheduling on a busy machine).
    expect(Date.now() - removedAt).toBeLessThan(5_000);
    expect(bot.output()).toContain('the journal file was removed');
    await until(
      () => (bot?.output() ?? '').includes('JOURNAL_DOWN') || (bot?.output() ?? '').includes('journal unwritable'),
      10_000,
    );

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(await open()).toBe(0);
    const fallback = readFileSync(`${journal}.fallback.jsonl`, 'utf8').trim().split('\n');
    const hooks = fallback.map((line) => (JSON.parse(line) as { hook: string }).hook);
    // The shutdown's cancels, each from its intent to its outcome.
    expect(hooks).toContain('requestSent');
    expect(hooks).toContain('outcome');
    expect(bot.output()).toContain('the journal could not be written to the end');
    expect(bot.output()).toContain('left on the venue at exit: nothing (no open orders, no positions)');
    expect(existsSync(journal)).toBe(false);
  }, 120_000);
});
