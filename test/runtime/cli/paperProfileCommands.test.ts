import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/runtime/cli/runCli.js';
import { memoryIo, testKeys } from './cliTestSupport.js';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-paper-cli-'));
  await writeFile(
    join(dir, 'paper.yaml'),
    [
      'venue: { profile: paper, rest_url: "http://127.0.0.1:1", ws_url: "ws://127.0.0.1:1/ws" }',
      'risk: { max_order_notional: "100", max_position_per_market: "100", max_open_orders: 4, max_actions_per_second: 5, kill_switch: { max_loss: "10" } }',
      'strategies: [{ name: mm, module: strategies/marketMaker.ts, markets: [1], params: { size: "0.001", spread_bps: 20, max_inventory: "0.01" } }]',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(dir, 'paper-no-urls.yaml'),
    'venue: { profile: paper }\nrisk: { max_order_notional: "1", max_position_per_market: "1", max_open_orders: 1, max_actions_per_second: 1, kill_switch: { max_loss: "1" } }\nstrategies: [{ name: mm, module: strategies/marketMaker.ts, markets: [1] }]\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('profile: paper outside perpbot start', () => {
  it('a command that signs for the venue is refused before any key is read: paper has no account there', async () => {
    // Keys in the environment would be read by a live profile; paper refuses before touching them.
    const m = memoryIo({ env: testKeys().env, cwd: dir });
    expect(await runCli(['cancel-all', '--config', 'paper.yaml'], m.io)).toBe(1);
    expect(m.stderr()).toMatch(/venue\.profile: profile paper has no account on the venue/);
    expect(m.stderr()).toMatch(/perpbot start/);
  });

  it('needs the venue’s URLs: its public feeds are what drive the shadow', async () => {
    const m = memoryIo({ env: {}, cwd: dir });
    expect(await runCli(['markets', '--config', 'paper-no-urls.yaml'], m.io)).toBe(1);
    expect(m.stderr()).toMatch(/venue\.rest_url: .*required for profile paper/);
  });
});
