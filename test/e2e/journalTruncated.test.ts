import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import { memoryIo, testKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot, until } from './support/journalBot.js';
import { startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

describe('a journal truncated under a running bot (perpbot start spawned)', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: RunningPerpbot | undefined;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-truncated-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    bot?.child.kill('SIGKILL');
    await bot?.exited;
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is noticed by the once-a-second watch, stops opening, and still cancels on stop', async () => {
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
    const before = bot.output().length;
    truncateSync(journal, 100);
    const cutAt = Date.now();
    await until(() => (bot?.output() ?? '').slice(before).includes('journal cannot be written'), 10_000);
    // The watch runs every second; the rest is the child's scheduling on a busy machine.
    expect(Date.now() - cutAt).toBeLessThan(5_000);
    const after = bot.output().slice(before);
    expect(after).toContain('the journal file was truncated (100 bytes');
    expect(after).toContain('perpbot reconcile --rebuild');
    await until(() => /JOURNAL_DOWN|journal unwritable/.test(bot?.output().slice(before) ?? ''), 10_000);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(await open()).toBe(0);
    expect(bot.output()).toContain('left on the venue at exit: nothing (no open orders, no positions)');
  }, 120_000);
});
