import Database from 'better-sqlite3';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/openJournal.js';
import { spawnPerpbot } from './support/spawnPerpbot.js';

describe('perpbot start on a journal damaged between runs (spawned)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-damaged-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function writeConfig(journal: string): string {
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
        // The embedded simulator registers the signer at once: the default 2 s lag held the start
        // that reaches the journal check 3.5 s in the setup's retries, which no test here is about.
        'sim: { registration_lag_ms: 0 }',
        '',
      ].join('\n'),
    );
    return config;
  }

  it('exits 1 with the integrity error and the next step, before it trades', async () => {
    const journal = join(dir, 'journal.sqlite');
    openJournal(journal).close();
    const db = new Database(journal);
    db.exec('DROP TABLE nonces');
    db.close();
    const config = writeConfig(journal);
    const run = await spawnPerpbot(['start', '--config', config]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the journal ${journal} has no table nonces`);
    expect(run.stderr).toContain(`mv ${journal} ${journal}.damaged`);
    expect(run.stdout).not.toContain('"msg":"bot running"');
  }, 60_000);

  it.each([
    ['an empty (0-byte) file', (path: string) => writeFileSync(path, ''), 'is an empty file (0 bytes), not a journal'],
    [
      "another program's database",
      (path: string) => {
        const db = new Database(path);
        db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY)');
        db.close();
      },
      "is another program's database (tables customers",
    ],
    [
      'a journal its owner made read-only',
      (path: string) => {
        openJournal(path).close();
        chmodSync(path, 0o444);
      },
      'is read-only (mode 0444)',
    ],
  ])(
    'exits 1 on %s at the journal path, saying what it is, before the venue is touched',
    async (_, make, says) => {
      const journal = join(dir, 'journal.sqlite');
      make(journal);
      const before = readFileSync(journal);
      const run = await spawnPerpbot(['start', '--config', writeConfig(journal)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`the journal ${journal} ${says}`);
      // Refused before the embedded simulator started: nothing touched the venue, nor the file.
      expect(run.stdout).not.toContain('simulator');
      expect(readFileSync(journal).equals(before)).toBe(true);
    },
    60_000,
  );
});
