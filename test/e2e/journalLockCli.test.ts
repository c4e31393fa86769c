import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { controlFileFor } from '../../src/runtime/operations/control/controlFile.js';
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

describe('one bot per journal (perpbot start spawned)', () => {
  let sim: RunningSim;
  let dir: string;
  const running: RunningPerpbot[] = [];
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-lock-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second start naming the first pid, leaves the first untouched, and takes over after kill -9', async () => {
    const keys = testKeys();
    const configPath = join(dir, 'perpbot.yaml');
    writeFileSync(
      configPath,
      journalBotConfig(dir, 'control: { port: 0 }\n')
        .replace('http://127.0.0.1:1', sim.restUrl)
        .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
    );
    expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
    const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000 });
    const args = ['start', '--config', configPath];

    const first = startPerpbotIn(args, dir, keys.env);
    running.push(first);
    await until(async () => (await openOrderIds(rest, keys)).length === 2, 60_000).catch((error: unknown) => {
      throw new Error(`the first bot placed no orders: ${first.output().slice(-2000)}`, { cause: error });
    });
    const orders = await openOrderIds(rest, keys);
    const nonce = await rest.nonceState(keys.account.address);
    const controlFile = controlFileFor(join(dir, 'journal.sqlite'));
    const control = readFileSync(controlFile, 'utf8');

    const second = startPerpbotIn(args, dir, keys.env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`in use by perpbot pid ${first.child.pid} (start`);
    expect(second.output()).toContain(`kill ${first.child.pid}`);
    expect(await openOrderIds(rest, keys)).toEqual(orders);
    expect(await rest.nonceState(keys.account.address)).toEqual(nonce);
    expect(readFileSync(controlFile, 'utf8')).toBe(control);
    expect(first.child.exitCode).toBeNull();
    // Read-only commands still work beside the running bot.
    const history = memoryIo({ env: keys.env, cwd: dir });
    expect(await runCli(['history', '--config', configPath, '--json'], history.io)).toBe(0);
    expect(JSON.parse(history.stdout())).toMatchObject({ orders: [{ state: 'open' }, { state: 'open' }] });

    first.child.kill('SIGKILL');
    await first.exited;
    const third = startPerpbotIn(args, dir, keys.env);
    running.push(third);
    await until(() => third.output().includes('"msg":"bot running"'), 60_000);
    expect(third.output()).toContain(`"previousPid":${first.child.pid}`);
    expect(JSON.parse(readFileSync(controlFile, 'utf8'))).toMatchObject({ pid: third.child.pid });
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    // shutdown.open_orders: keep — the exit says exactly what it left resting.
    expect(third.output()).toContain('left on the venue at exit: 2 open order(s), 0 position(s)');
  }, 120_000);
});
