import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../../src/venue/rest/restClient.js';
import { memoryIo, testKeys } from '../../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot } from './journalBot.js';
import { startPerpbotIn, type RunningPerpbot } from './spawnPerpbot.js';

/**
 * `perpbot start` spawned as a user runs it, with the journal-probe strategy (two resting bids) on
 * a simulator on port 0, set up by `perpbot setup`: what the journal's host-fault e2e tests share.
 */
export interface SpawnedProbeBot {
  readonly sim: RunningSim;
  readonly dir: string;
  readonly journal: string;
  readonly account: string;
  readonly rest: RestClient;
  /** The account's open orders in market 1, read from the venue. */
  openOrders(): Promise<number>;
  /** Starts the bot with the keys' environment and `env` on top. */
  start(env?: Record<string, string>): RunningPerpbot;
  /** Kills a bot still running, closes the simulator and removes the directory. */
  close(): Promise<void>;
}

/** `shutdown` replaces the probe config's `{ open_orders: keep }` block. */
export async function spawnedProbeBot(name: string, shutdown: string): Promise<SpawnedProbeBot> {
  const sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), `perpbot-${name}-`));
  prepareProbeRoot(dir);
  const keys = testKeys();
  const configPath = join(dir, 'perpbot.yaml');
  writeFileSync(
    configPath,
    journalBotConfig(dir)
      .replace('shutdown: { open_orders: keep }', `shutdown: ${shutdown}`)
      .replace('http://127.0.0.1:1', sim.restUrl)
      .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
  );
  if ((await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)) !== 0)
    throw new Error('perpbot setup failed for the probe bot');
  const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000 });
  const account = keys.account.address;
  let bot: RunningPerpbot | undefined;
  return {
    sim,
    dir,
    journal: join(dir, 'journal.sqlite'),
    account,
    rest,
    openOrders: async () => (await rest.openOrders({ account, market_id: '1' })).orders.length,
    start: (env = {}) => (bot = startPerpbotIn(['start', '--config', configPath], dir, { ...keys.env, ...env })),
    close: async () => {
      bot?.child.kill('SIGKILL');
      await bot?.exited;
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
