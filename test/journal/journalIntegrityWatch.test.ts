import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalIntegrityWatch, quickCheckInWorker } from '../../src/journal/journalIntegrityWatch.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { ResilientEngineJournal } from '../../src/journal/resilientEngineJournal.js';
import { ManualClock } from '../../src/core/clock.js';

function damagePageInPlace(path: string): void {
  const size = statSync(path).size;
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(2000, 0xa5), 0, 2000, Math.floor(size / 2 / 4096) * 4096 + 100);
  } finally {
    closeSync(fd);
  }
}

describe('the journal checked while the bot runs', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-integrity-'));
    path = join(dir, 'journal.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("finds a page damaged in place under a running bot's open journal, and the resilient journal stops opening", async () => {
    const journal = openJournal(path);
    const db = new Database(path);
    const insert = db.prepare('INSERT INTO balances (account, balance, source, at_ms) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`0x${'ab'.repeat(20)}`, `${i}.5`, 'reconcile', i);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    expect(await quickCheckInWorker(path)).toEqual({ problems: [] });

    const lines: { level: string; msg: string; reason?: string }[] = [];
    const log = {
      info: (o: object, msg: string) => lines.push({ level: 'info', msg, ...o }),
      warn: (o: object, msg: string) => lines.push({ level: 'warn', msg, ...o }),
      error: (o: object, msg: string) => lines.push({ level: 'error', msg, ...o }),
    };
    const clock = new ManualClock(0);
    const resilient = new ResilientEngineJournal({ inner: {} as never, journalPath: path, log, clock });
    const downs: string[] = [];
    resilient.attach({ journalDown: (reason) => downs.push(reason), journalUp: () => undefined });
    const watch = new JournalIntegrityWatch({
      path,
      everyMs: 60_000,
      now: () => clock.now(),
      onDamaged: (reason) => resilient.damaged(reason),
      onCheckFailed: (reason) => lines.push({ level: 'warn', msg: reason }),
    });
    await watch.tick();
    await clock.advance(60_000);
    await watch.tick();
    expect(downs).toEqual([]);

    damagePageInPlace(path);
    await watch.tick();
    expect(downs).toEqual([]);
    await clock.advance(60_000);
    await watch.tick();
    expect(downs).toHaveLength(1);
    expect(downs[0]).toMatch(/^the journal file is damaged in place: /);
    expect(resilient.isDown).toBe(true);
    // It stays down: retrying the writes cannot mend the pages.
    expect(resilient.retry()).toBe(false);
    journal.close();
  });

  it('says once when a check cannot run, and tries again', async () => {
    let now = 0;
    const failures: string[] = [];
    const watch = new JournalIntegrityWatch({
      path: join(dir, 'missing.sqlite'),
      everyMs: 10,
      now: () => now,
      onDamaged: () => expect.unreachable('a missing file is not damage'),
      onCheckFailed: (reason) => failures.push(reason),
    });
    for (let i = 0; i < 3; i++) {
      now += 10;
      await watch.tick();
    }
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/unable to open database file/);
  });
});
