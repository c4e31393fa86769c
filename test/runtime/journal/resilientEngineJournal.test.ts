import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { EngineJournal } from '../../../src/engine/tracking/engineJournal.js';
import { ResilientEngineJournal } from '../../../src/runtime/journal/resilientEngineJournal.js';

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

function setup(inode: () => number | undefined = () => 7) {
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
    inode,
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
    let inode: number | undefined = 7;
    const { inner, journal, health } = setup(() => inode);
    journal.checkFile();
    expect(journal.isDown).toBe(false);
    inode = undefined;
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
      inode: () => 1,
    });
    inner.failing.on = true;
    journal.outcome(outcome('a'));
    journal.outcome(outcome('b'));
    expect(journal.keptCount).toBe(2);
    expect(logs.filter((m) => m.includes('fallback file cannot be written'))).toHaveLength(1);
  });
});
