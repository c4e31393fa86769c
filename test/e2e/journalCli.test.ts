import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import { memoryIo, placeLimit, testKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot, startJournalBot, until } from './support/journalBot.js';

describe('perpbot history and perpbot reconcile', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-cli-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the journal as a table or JSON, and reports an order the journal does not know', async () => {
    const keys = testKeys();
    const configPath = join(dir, 'perpbot.yaml');
    writeFileSync(
      configPath,
      journalBotConfig(dir).replace('http://127.0.0.1:1', sim.restUrl).replace('ws://127.0.0.1:1/ws', sim.wsUrl),
    );
    const cli = async (args: string[]) => {
      const m = memoryIo({ env: keys.env, cwd: dir });
      const code = await runCli(args, m.io);
      return { code, stdout: m.stdout(), stderr: m.stderr() };
    };
    expect((await cli(['setup', '--config', configPath])).code).toBe(0);

    const bot = await startJournalBot(
      sim,
      { account: keys.account.address, signer: keys.signer, signerKey: keys.signerKey },
      dir,
    );
    await until(
      () => bot.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
    );
    await bot.stop();

    const json = await cli(['history', '--config', configPath, '--json', '--limit', '5']);
    expect(json.code).toBe(0);
    const history = JSON.parse(json.stdout) as {
      orders: { strategy: string; price: string; state: string }[];
      fills: unknown[];
    };
    expect(history.orders.map((o) => [o.strategy, o.price, o.state]).sort()).toEqual([
      ['probe', '63000', 'open'],
      ['probe', '64000', 'open'],
    ]);
    expect(history.fills).toEqual([]);
    const text = await cli(['history', '--config', configPath]);
    expect(text.stdout).toMatch(/^orders:\nupdated +strategy +market +side/m);
    expect(text.stdout).toContain('fills: none');

    const clean = (await cli(['reconcile', '--config', configPath])).stdout;
    expect(clean).toContain('no differences');
    // The bot's start journaled a balance snapshot; nothing has moved the money since.
    expect(clean).toMatch(/^balance \d+\.\d{6} USDC: 0\.000000 since the journaled \d+\.\d{6} at \d{4}-/m);

    // An order placed outside the bot: reported, and (without --apply) nothing written.
    const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000 });
    const state = await rest.nonceState(keys.account.address);
    const foreign = await placeLimit(rest, keys, {
      marketId: 1,
      side: 0,
      priceTicks: 600_000,
      sizeSteps: 15,
      nonce: { anchor: BigInt(state.nonce_anchor), bit: 207 },
    });
    for (let i = 0; i < 2; i++) {
      const report = await cli(['reconcile', '--config', configPath]);
      expect(report.code).toBe(1);
      expect(report.stdout).toContain(
        `order ${foreign} in market 1 is open on the venue but not in the journal: leave`,
      );
    }
  }, 30_000);
});
