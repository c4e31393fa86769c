import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnPerpbot, type CliRun } from './support/spawnPerpbot.js';

/** A bot on the embedded simulator whose strategy names market `market`. */
function config(dir: string, market: number): string {
  return [
    'venue: { profile: sim }',
    'risk:',
    '  max_order_notional: "1000"',
    '  max_position_per_market: "5000"',
    '  max_open_orders: 20',
    '  max_actions_per_second: 5',
    '  kill_switch: { max_loss: "500" }',
    'strategies:',
    '  - name: mm',
    '    module: strategies/marketMaker.ts',
    `    markets: [${market}]`,
    '    params: { size: "0.001", spread_bps: 20, max_inventory: "0.01" }',
    'logging: { level: info, pretty: false }',
    `journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }`,
    'sim: { block_ms: 50, registration_lag_ms: 0, port: 0 }',
    '',
  ].join('\n');
}

let dir = '';
const runs: Record<string, CliRun> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-markets-'));
  await writeFile(join(dir, 'seven.yaml'), config(dir, 7));
  const [table, json, missing] = await Promise.all([
    spawnPerpbot(['markets']),
    spawnPerpbot(['markets', '--json']),
    spawnPerpbot(['start', '--config', join(dir, 'seven.yaml')], {}, 60_000),
  ]);
  Object.assign(runs, { table, json, missing });
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('perpbot markets and the configured markets (spawned)', () => {
  it('prints the venue markets as a table: id, name, tick, step, min size', () => {
    const run = runs['table'];
    expect(run?.code).toBe(0);
    const lines = (run?.stdout ?? '').trim().split('\n');
    expect(lines[0]).toMatch(/^id +name +tick +step +min size +max leverage +mark$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['1', '2', '3', '4']);
    expect(lines[1]).toMatch(/^1 +BTC\/USDC +0\.1 +0\.00001 +0\.00015 +50 +\d/);
  });

  it('prints the same markets as JSON with --json', () => {
    const rows = JSON.parse(runs['json']?.stdout ?? '[]') as { id: number; tick: string; minSize: string }[];
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(rows[0]).toMatchObject({ tick: '0.1', minSize: '0.00015' });
  });

  it('refuses to start on a market the venue does not have, before any order, listing the markets', () => {
    const run = runs['missing'];
    expect(run?.code).toBe(1);
    const last = run?.stderr.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(
      /^perpbot: config error at strategies\[0\]\.markets\[0\]: market 7 does not exist on this venue; its markets: 1 BTC\/USDC \(tick 0\.1, step 0\.00001, min size 0\.00015\); 2 ETH\/USDC/,
    );
    expect(run?.stdout ?? '').not.toMatch(/"msg":"(placed|intent)/);
    expect(run?.stdout ?? '').not.toContain('strategy started');
  });
});
