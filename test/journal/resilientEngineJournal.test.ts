import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { EngineJournal } from '../../src/engine/tracking/engineJournal.js';
import { ResilientEngineJournal } from '../../src/journal/resilientEngineJournal.js';

/** A journal that records what it took, and refuses writes while `failing` (a full disk). */
function fakeJournal(): { journal: EngineJournal; written: string[]; failing: { on: boolean } } {
  const written: string[] = [];
  const failing = { on: false };
  const take = (what: string) => {
    if (failing.on) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    written.push(what);
  };
  return {
    written,
    failing,
    journal: {
      intentReceived: (intent) => take(`intent ${intent.intentId}`),
      nonceAllocated: (pair, intentId) => take(`nonce ${pair.anchor}/${pair.bit} ${intentId}`),
      requestSent: (e) => take(`request ${e.intentId}#${e.attempt}`),
      responseReceived: (e) => take(`response ${e.intentId}#${e.attempt}`),
      outcome: (o) => take(`outcome ${o.intentId}`),
    },
  };
}

type FileState = { inode: number; size: number; sqliteHeader: boolean } | undefined;

function setup(fileState: () => FileState = () => ({ inode: 7, size: 4096, sqliteHeader: true })) {
  const inner = fakeJournal();
  const lines: string[] = [];
  const logs: string[] = [];
  const health: string[] = [];
  const journal = new ResilientEngineJournal({
    inner: inner.journal,
    journalPath: '/data/journal.sqlite',
    clock: new ManualClock(1000),
    log: {
      info: (_o, m) => logs.push(`info ${m ?? ''}`),
      warn: (_o, m) => logs.push(`warn ${m ?? ''}`),
      error: (_o, m) => logs.push(`error ${m ?? ''}`),
    },
    append: (path, text) => lines.push(`${path} ${text}`),
    fileState,
  });
  journal.attach({ journalDown: (r) => health.push(`down ${r}`), journalUp: () => health.push('up') });
  return { inner, journal, lines, logs, health };
}

const intent = (id: string) => ({ intentId: id }) as Parameters<EngineJournal['intentReceived']>[0];
const outcome = (id: string) => ({ intentId: id }) as Parameters<EngineJournal['outcome']>[0];

describe('ResilientEngineJournal', () => {
  it('passes writes through while the journal takes them', () => {
    const { inner, journal, health } = setup();
    journal.intentReceived(intent('a'), 1);
    journal.outcome(outcome('a'));
    expect(inner.written).toEqual(['intent a', 'outcome a']);
    expect(health).toEqual([]);
    expect(journal.isDown).toBe(false);
  });

  it('on a refused write goes down once, keeps every record in order (memory and fallback file), and writes them when it can', () => {
    const { inner, journal, lines, health, logs } = setup();
    journal.intentReceived(intent('open-1'), 1);
    inner.failing.on = true;
    journal.intentReceived(intent('cancel-1'), 2);
    inner.failing.on = false;
    // Down stays down until a retry has written what was kept: order is what makes the journal true.
    journal.requestSent({ intentId: 'cancel-1', endpoint: 'cancelOrder', body: {}, attempt: 1, atMs: 3 });
    journal.outcome(outcome('cancel-1'));
    expect(health).toEqual(['down database or disk is full (SQLITE_FULL)']);
    expect(journal.keptCount).toBe(3);
    expect(inner.written).toEqual(['intent open-1']);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\/data\/journal\.sqlite\.fallback\.jsonl \{"at":1000,"hook":"intentReceived"/);
    expect(logs[0]).toMatch(/^error journal cannot be written: opening stopped/);

    inner.failing.on = true;
    expect(journal.retry()).toBe(false);
    inner.failing.on = false;
    expect(journal.retry()).toBe(true);
    expect(inner.written).toEqual(['intent open-1', 'intent cancel-1', 'request cancel-1#1', 'outcome cancel-1']);
    expect(health).toEqual(['down database or disk is full (SQLITE_FULL)', 'up']);
    expect(journal.keptCount).toBe(0);
    journal.outcome(outcome('later'));
    expect(inner.written.at(-1)).toBe('outcome later');
  });

  it('notices a removed journal file and never writes into the lost file again', () => {
    let state: FileState = { inode: 7, size: 4096, sqliteHeader: true };
    const { inner, journal, health } = setup(() => state);
    journal.checkFile();
    expect(journal.isDown).toBe(false);
    state = undefined;
    journal.checkFile();
    expect(health).toEqual(['down the journal file was removed']);
    journal.outcome(outcome('x'));
    expect(inner.written).toEqual([]);
    expect(journal.retry()).toBe(false);
    expect(journal.keptCount).toBe(1);
  });

  it('keeps records in memory when the fallback file cannot be written either, saying so once', () => {
    const inner = fakeJournal();
    const logs: string[] = [];
    const journal = new ResilientEngineJournal({
      inner: inner.journal,
      journalPath: '/data/journal.sqlite',
      clock: new ManualClock(0),
      log: { info: () => undefined, warn: (_o, m) => logs.push(m ?? ''), error: () => undefined },
      append: () => {
        throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      },
      fileState: () => ({ inode: 1, size: 0, sqliteHeader: true }),
    });
    inner.failing.on = true;
    journal.outcome(outcome('a'));
    journal.outcome(outcome('b'));
    expect(journal.keptCount).toBe(2);
    expect(logs.filter((m) => m.includes('fallback file cannot be written'))).toHaveLength(1);
  });

  it('notices a journal file cut shorter or stripped of its header, and stops writing into it', () => {
    let state: FileState = { inode: 7, size: 8192, sqliteHeader: true };
    const { inner, journal, health } = setup(() => state);
    state = { inode: 7, size: 12288, sqliteHeader: true };
    journal.checkFile();
    expect(journal.isDown).toBe(false);
    state = { inode: 7, size: 4096, sqliteHeader: true };
    journal.checkFile();
    expect(health).toHaveLength(1);
    expect(health[0]).toContain('the journal file was truncated (4096 bytes, was 12288)');
    // Commands that exist: no `reconcile --rebuild`.
    expect(health[0]).toContain('restore it from a backup, or move it aside and start again');
    expect(health[0]).not.toContain('--rebuild');
    journal.outcome(outcome('x'));
    expect(inner.written).toEqual([]);
    expect(journal.retry()).toBe(false);
  });

  it('takes a file whose header was overwritten at the same size for a damaged journal', () => {
    let state: FileState = { inode: 7, size: 8192, sqliteHeader: true };
    const { journal, health } = setup(() => state);
    journal.checkFile();
    state = { inode: 7, size: 8192, sqliteHeader: false };
    journal.checkFile();
    expect(health[0]).toContain('SQLite header is gone');
  });

  it('notices a replaced journal file (another inode at the same path)', () => {
    let state: FileState = { inode: 7, size: 8192, sqliteHeader: true };
    const { journal, health } = setup(() => state);
    state = { inode: 8, size: 8192, sqliteHeader: true };
    journal.checkFile();
    expect(health).toEqual(['down the journal file was replaced']);
  });
});
