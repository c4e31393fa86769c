import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, spawnPerpbot, type CliRun } from './support/spawnPerpbot.js';

/** The default config, as a user edits it, with its strategy on market `market` and its journal in `dir`. */
async function config(dir: string, market: number): Promise<string> {
  const text = await readFile(join(REPO_ROOT, 'config', 'default.yaml'), 'utf8');
  const edited = text
    .replace('    markets: [1]', `    markets: [${market}]`)
    .replace('  path: data/journal.sqlite', `  path: ${JSON.stringify(join(dir, 'journal.sqlite'))}`);
  if (!edited.includes(`markets: [${market}]`) || edited.includes('data/journal.sqlite'))
    throw new Error('config/default.yaml changed: its strategy market or journal path is not where this test edits it');
  return edited;
}

let dir = '';
const runs: Record<string, CliRun> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-markets-'));
  await writeFile(join(dir, 'seven.yaml'), await config(dir, 7));
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
