import Database from 'better-sqlite3';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { memoryIo, testKeys, type TestKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot, until } from './support/journalBot.js';
import { startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

async function openOrderIds(rest: RestClient, keys: TestKeys): Promise<string[]> {
  const open = await rest.openOrders({ account: keys.account.address, market_id: '1' });
  return open.orders.map((o) => o.order_id).sort();
}

/**
 * The lock is the journal file's, not its name's: a second `perpbot start` whose journal.path is a
 * symlink or a hard link to a running bot's journal (as a persistent or shared volume produces)
 * is refused naming the first, which goes on untouched.
 */
describe('one bot per journal file, whatever its name (perpbot start spawned)', () => {
  let sim: RunningSim;
  let dir: string;
  let keys: TestKeys;
  let rest: RestClient;
  let first: RunningPerpbot;
  const others: RunningPerpbot[] = [];
  const journal = (): string => join(dir, 'journal.sqlite');
  beforeAll(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-linked-'));
    prepareProbeRoot(dir);
    keys = testKeys();
    rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    for (const cli of [first, ...others]) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function configWithJournal(name: string, journalPath: string): string {
    const path = join(dir, name);
    writeFileSync(
      path,
      journalBotConfig(dir)
        .replace(JSON.stringify(join(dir, 'journal.sqlite')), JSON.stringify(journalPath))
        .replace('http://127.0.0.1:1', sim.restUrl)
        .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
    );
    return path;
  }

  it('refuses a second start through a symlink and through a hard link, naming the first; the first and its journal are untouched', async () => {
    const configPath = configWithJournal('perpbot.yaml', journal());
    expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
    first = startPerpbotIn(['start', '--config', configPath], dir, keys.env);
    await until(async () => (await openOrderIds(rest, keys)).length === 2, 60_000).catch((error: unknown) => {
      throw new Error(`the first bot placed no orders: ${first.output().slice(-2000)}`, { cause: error });
    });
    const orders = await openOrderIds(rest, keys);
    const nonce = await rest.nonceState(keys.account.address);

    mkdirSync(join(dir, 'volume'));
    const symlink = join(dir, 'volume', 'symlinked.sqlite');
    symlinkSync(journal(), symlink);
    const viaSymlink = startPerpbotIn(
      ['start', '--config', configWithJournal('symlinked.yaml', symlink)],
      dir,
      keys.env,
    );
    others.push(viaSymlink);
    expect(await viaSymlink.exited).toBe(1);
    expect(viaSymlink.output()).toContain(`in use by perpbot pid ${first.child.pid} (start`);

    const hardLink = join(dir, 'volume', 'hardlinked.sqlite');
    linkSync(journal(), hardLink);
    const viaHardLink = startPerpbotIn(
      ['start', '--config', configWithJournal('hardlinked.yaml', hardLink)],
      dir,
      keys.env,
    );
    others.push(viaHardLink);
    expect(await viaHardLink.exited).toBe(1);
    expect(viaHardLink.output()).toContain(`${hardLink} has 2 hard links`);
    expect(viaHardLink.output()).toContain(`open in perpbot pid ${first.child.pid} (start`);
    // SQLite never opened the journal under its second name: no WAL of its own beside it.
    expect(viaHardLink.output()).not.toContain('"msg":"bot running"');

    expect(await openOrderIds(rest, keys)).toEqual(orders);
    expect(await rest.nonceState(keys.account.address)).toEqual(nonce);
    expect(first.child.exitCode).toBeNull();
    rmSync(hardLink);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const db = new Database(journal(), { readonly: true });
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      db.close();
    }
  }, 120_000);
});
