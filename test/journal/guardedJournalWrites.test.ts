import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { EngineJournal } from '../../src/engine/tracking/engineJournal.js';
import { guardedJournalWrites } from '../../src/journal/guardedJournalWrites.js';
import type { FillWrite } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { ResilientEngineJournal } from '../../src/journal/resilientEngineJournal.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const NO_HOOKS = {} as EngineJournal;

const fill = (id: string): FillWrite => ({
  id,
  marketId: 1,
  orderId: '0x01',
  side: 'buy',
  price: '65000',
  size: '0.001',
  fee: '0.01',
  liquidity: 'MAKER',
});

describe("the runtime's journal writes behind the resilient journal (a real SQLite journal, the full-disk drill)", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'perpbot-guarded-'));
    dirs.push(dir);
    const path = join(dir, 'journal.sqlite');
    const disk = { full: false };
    const journal = openJournal(path, { writeFault: () => (disk.full ? 'test' : undefined) });
    const health: string[] = [];
    const appended: string[] = [];
    const resilient = new ResilientEngineJournal({
      inner: NO_HOOKS,
      journalPath: path,
      clock: new ManualClock(0),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      append: (_p, text) => appended.push(text),
    });
    resilient.attach({ journalDown: (r) => health.push(`down ${r}`), journalUp: () => health.push('up') });
    return { journal, guarded: guardedJournalWrites(journal, resilient), resilient, disk, health, appended };
  }

  it('turns a failed write into "journal down" instead of a throw, keeps it, and writes it once there is room', () => {
    const { journal, guarded, resilient, disk, health, appended } = setup();
    disk.full = true;
    expect(() => guarded.recordPosition(ACCOUNT, { marketId: 1, side: 'buy', size: '0.5' }, 'venue', 1)).not.toThrow();
    expect(health).toHaveLength(1);
    expect(health[0]).toContain('database or disk is full');
    expect(JSON.parse(appended[0] ?? '{}')).toMatchObject({ hook: 'recordPosition' });
    expect(journal.latestPosition(ACCOUNT, 1)).toBeUndefined();
    disk.full = false;
    expect(resilient.retry()).toBe(true);
    expect(health.at(-1)).toBe('up');
    expect(journal.latestPosition(ACCOUNT, 1)?.size).toBe('0.5');
    journal.close();
  });

  it('counts a fill seen while the journal is down once, whether the journal or the kept records hold it', () => {
    const { journal, guarded, resilient, disk } = setup();
    expect(guarded.recordFill(ACCOUNT, fill('f1'), 'venue', 1)).toBe(true);
    disk.full = true;
    expect(guarded.recordFill(ACCOUNT, fill('f1'), 'history', 2)).toBe(false);
    expect(guarded.recordFill(ACCOUNT, fill('f2'), 'venue', 3)).toBe(true);
    expect(guarded.recordFill(ACCOUNT, fill('f2'), 'history', 4)).toBe(false);
    disk.full = false;
    expect(resilient.retry()).toBe(true);
    expect(journal.hasFill(ACCOUNT, 'f2')).toBe(true);
    expect(guarded.recordFill(ACCOUNT, fill('f2'), 'venue', 5)).toBe(false);
    journal.close();
  });

  it('leaves reads alone while the journal is down', () => {
    const { journal, guarded, disk } = setup();
    guarded.recordFill(ACCOUNT, fill('f1'), 'venue', 1);
    disk.full = true;
    expect(guarded.hasFill(ACCOUNT, 'f1')).toBe(true);
    expect(guarded.recentFills(10, ACCOUNT)).toHaveLength(1);
    journal.close();
  });
});
