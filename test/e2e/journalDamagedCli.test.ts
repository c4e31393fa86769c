import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/runtime/journal/openJournal.js';
import { spawnPerpbot } from './support/spawnPerpbot.js';

describe('perpbot start on a journal damaged between runs (spawned)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-damaged-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 with the integrity error and the next step, before it trades', async () => {
    const journal = join(dir, 'journal.sqlite');
    openJournal(journal).close();
    const db = new Database(journal);
    db.exec('DROP TABLE nonces');
    db.close();
    const config = join(dir, 'bot.yaml');
    writeFileSync(
      config,
      [
        'venue: { profile: sim }',
        'risk: { max_order_notional: "1000", max_position_per_market: "5000", max_open_orders: 20, max_actions_per_second: 5, kill_switch: { max_loss: "500" } }',
        'strategies:',
        '  - { name: mm, module: strategies/marketMaker.ts, markets: [1], params: { size: "0.001", spread_bps: 20, max_inventory: "0.01" } }',
        'logging: { level: info, pretty: false }',
        `journal: { path: ${JSON.stringify(journal)} }`,
        '',
      ].join('\n'),
    );
    const run = await spawnPerpbot(['start', '--config', config]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the journal ${journal} has no table nonces`);
    expect(run.stderr).toContain(`mv ${journal} ${journal}.damaged`);
    expect(run.stdout).not.toContain('"msg":"bot running"');
  }, 60_000);
});
