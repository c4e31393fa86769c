import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { memoryIo, testKeys, writeSimConfig, type TestKeys } from '../runtime/cli/cliTestSupport.js';
import { spawnPerpbot, type CliRun } from './support/spawnPerpbot.js';

/**
 * The real CLI in a child process against a simulator that answers 30 % of requests with a 503
 * (before executing, as a gateway would): status and reconcile still succeed, riding the failures
 * out through the REST transport's read retries and the command's start-up deadline.
 */
const perpbot = (args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> =>
  spawnPerpbot(args, env, 60_000);

let sim: RunningSim;
let keys: TestKeys;
let dir = '';
let config = '';

beforeAll(async () => {
  sim = await startSim({ port: 0, seed: 7, blockMs: 0, registrationLagMs: 0 });
  keys = testKeys();
  ({ dir, path: config } = await writeSimConfig(sim, [1]));
  // Warnings on: each wait is logged (on stderr, away from the JSON on stdout).
  const text = (await readFile(config, 'utf8')).replace(
    'logging: { level: silent, pretty: false }',
    `logging: { level: warn, pretty: false }\njournal: { path: ${join(dir, 'journal.sqlite')} }`,
  );
  await writeFile(config, text);
  // Set up without faults: setup's signed POSTs are not retried blindly, by design.
  const m = memoryIo({ env: keys.env, cwd: dir });
  expect(await runCli(['setup', '--config', config], m.io)).toBe(0);
  sim.controls.setFaults({ errorRate: 0.3, errorAfterActionShare: 0 });
}, 60_000);

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('perpbot against a venue failing 30 % of reads (spawned)', () => {
  it('status and reconcile --account succeed, logging each wait', async () => {
    const [status, reconcile] = await Promise.all([
      perpbot(['status', '--config', config, '--json'], keys.env),
      perpbot(['reconcile', '--config', config, '--account', keys.account.address]),
    ]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      account: keys.account.address,
      registered: true,
      balance: '1000',
      markets: [{ marketId: 1, openOrders: [] }],
    });
    expect(reconcile.code, reconcile.stderr).toBe(0);
    expect(reconcile.stdout).toContain('no differences: the journal matches the venue');
    // The seeded faults did hit these commands, and every wait says what it waited for.
    const waits = `${status.stderr}${reconcile.stderr}`
      .split('\n')
      .filter((line) => line.includes('waiting for the venue'));
    expect(waits.length).toBeGreaterThan(0);
    for (const line of waits)
      expect(JSON.parse(line)).toMatchObject({
        level: 40,
        reason: expect.stringMatching(/HTTP 503: Unavailable: simulated outage/),
      });
  }, 90_000);
});
