import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../src/core/perpbotError.js';
import Database from 'better-sqlite3';
import { acquireJournalLock } from '../../src/journal/journalLock.js';
import { openJournal } from '../../src/journal/openJournal.js';

const CHILD = new URL('./support/lockHolderChild.ts', import.meta.url).pathname;

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  /** The child's first line: `held <tookOverFrom>` or the refusal as JSON. */
  readonly firstLine: Promise<string>;
  readonly exited: Promise<number | null>;
}

function lockInChild(journal: string, open = false): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, journal, ...(open ? ['open'] : [])], {
    stdio: 'pipe',
  });
  let out = '';
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
    });
    child.on('exit', () => reject(new Error(`child exited before a line; stdout ${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, firstLine, exited };
}

describe('acquireJournalLock', () => {
  let dir: string;
  let journal: string;
  const children: Child[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-lock-'));
    journal = join(dir, 'data', 'journal.sqlite');
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.process.kill('SIGKILL');
      await child.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second process at once, naming the holder pid and how to stop it', async () => {
    const lock = acquireJournalLock(journal, 'start');
    try {
      const other = lockInChild(journal);
      children.push(other);
      const refusal = JSON.parse(await other.firstLine) as { code: string; message: string; hints: string[] };
      expect(refusal.code).toBe('JOURNAL_LOCKED');
      expect(refusal.message).toContain(`perpbot pid ${process.pid} (start, since `);
      expect(refusal.message).toContain(journal);
      expect(refusal.hints[0]).toContain(`kill ${process.pid}`);
      expect(await other.exited).toBe(3);
    } finally {
      lock.release();
    }
  });

  it('is free again once released, and the holder file goes with it', async () => {
    const lock = acquireJournalLock(journal, 'start');
    expect(JSON.parse(readFileSync(`${journal}.lock.json`, 'utf8'))).toMatchObject({
      pid: process.pid,
      command: 'start',
    });
    lock.release();
    lock.release();
    expect(existsSync(`${journal}.lock.json`)).toBe(false);
    const other = lockInChild(journal);
    children.push(other);
    expect(await other.firstLine).toBe('held null');
  });

  it('takes over the lock a kill -9 left, and says whose it was', async () => {
    const killed = lockInChild(journal);
    children.push(killed);
    expect(await killed.firstLine).toBe('held null');
    const killedPid = killed.process.pid;
    expect(() => acquireJournalLock(journal, 'start')).toThrow(/in use by perpbot pid \d+ \(lock-test/);
    killed.process.kill('SIGKILL');
    await killed.exited;
    const lock = acquireJournalLock(journal, 'start');
    try {
      expect(lock.tookOverFrom).toMatchObject({ pid: killedPid, command: 'lock-test' });
      expect(JSON.parse(readFileSync(`${journal}.lock.json`, 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      lock.release();
    }
  });

  it('is re-entrant within the process: the last holder releases it', async () => {
    const first = acquireJournalLock(journal, 'start');
    const second = acquireJournalLock(journal, 'setup');
    expect(second.tookOverFrom).toBeUndefined();
    first.release();
    const stillHeld = lockInChild(journal);
    children.push(stillHeld);
    expect(JSON.parse(await stillHeld.firstLine)).toMatchObject({ code: 'JOURNAL_LOCKED' });
    second.release();
    const free = lockInChild(journal);
    children.push(free);
    expect(await free.firstLine).toBe('held null');
  });

  it('keeps the lock and holder files to their owner (0600), in a directory it made 0700', () => {
    const lock = acquireJournalLock(journal, 'start');
    try {
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
      expect(statSync(`${journal}.lock`).mode & 0o777).toBe(0o600);
      expect(statSync(`${journal}.lock.json`).mode & 0o777).toBe(0o600);
    } finally {
      lock.release();
    }
  });

  it('a refusal is a PerpbotError with the path in its details', async () => {
    const holder = lockInChild(journal);
    children.push(holder);
    await holder.firstLine;
    try {
      acquireJournalLock(journal, 'reconcile --apply');
      expect.unreachable('the lock was taken twice');
    } catch (error) {
      expect(isPerpbotError(error) && error.code).toBe('JOURNAL_LOCKED');
      expect(isPerpbotError(error) && error.details).toMatchObject({ path: journal, holderCommand: 'lock-test' });
    }
  });

  describe('keyed on the file, not the name', () => {
    function refusalOf(path: string): { code: string; message: string; hints: string[] } {
      try {
        acquireJournalLock(path, 'start').release();
      } catch (error) {
        if (isPerpbotError(error)) return { code: error.code, message: error.message, hints: [...error.hints] };
        throw error;
      }
      throw new Error(`the lock through ${path} was taken`);
    }

    it('refuses a second process through a symlink to the journal file, naming the holder', async () => {
      const holder = lockInChild(journal, true);
      children.push(holder);
      expect(await holder.firstLine).toBe('held null');
      const link = join(dir, 'elsewhere', 'link.sqlite');
      mkdirSync(join(dir, 'elsewhere'));
      symlinkSync(journal, link);
      const refusal = refusalOf(link);
      expect(refusal.code).toBe('JOURNAL_LOCKED');
      expect(refusal.message).toContain(`in use by perpbot pid ${holder.process.pid} (lock-test`);
      expect(refusal.message).toContain(journal);
    });

    it('refuses a second process through a symlinked directory', async () => {
      const holder = lockInChild(journal, true);
      children.push(holder);
      await holder.firstLine;
      symlinkSync(join(dir, 'data'), join(dir, 'linked'));
      expect(refusalOf(join(dir, 'linked', 'journal.sqlite'))).toMatchObject({ code: 'JOURNAL_LOCKED' });
    });

    it('refuses a journal with a second hard link, naming the process that has it open under its other name', async () => {
      const holder = lockInChild(journal, true);
      children.push(holder);
      await holder.firstLine;
      const other = join(dir, 'elsewhere.sqlite');
      linkSync(journal, other);
      const refusal = refusalOf(other);
      expect(refusal.code).toBe('JOURNAL_LINKED');
      expect(refusal.message).toContain(`${other} has 2 hard links`);
      expect(refusal.message).toContain(`open in perpbot pid ${holder.process.pid} (lock-test`);
      expect(refusal.message).toContain(journal);
      expect(refusal.hints.join('\n')).toContain(`kill ${holder.process.pid}`);
    });

    it('refuses a hard-linked journal even when nothing holds it, and so a hard-linked WAL', () => {
      openJournal(journal).close();
      const other = join(dir, 'copy.sqlite');
      linkSync(journal, other);
      expect(refusalOf(journal)).toMatchObject({
        code: 'JOURNAL_LINKED',
        message: expect.stringContaining('2 hard links'),
      });
      rmSync(other);
      const wal = `${journal}-wal`;
      const db = new Database(journal);
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE IF NOT EXISTS kept (x)');
      // Left open, so the WAL stays beside it.
      linkSync(wal, join(dir, 'copy.sqlite-wal'));
      try {
        expect(refusalOf(journal)).toMatchObject({ code: 'JOURNAL_LINKED', message: expect.stringContaining(wal) });
      } finally {
        db.close();
      }
    });

    it('refuses a journal path that is a symlink to nothing', () => {
      mkdirSync(join(dir, 'data'));
      symlinkSync(join(dir, 'gone.sqlite'), journal);
      expect(refusalOf(journal)).toMatchObject({
        code: 'JOURNAL_LINKED',
        message: expect.stringContaining('gone.sqlite'),
      });
    });
  });
});
