import type { Clock } from '../core/clock.js';
import { appendPrivateFileSync } from '../core/privateFiles.js';
import type { Logger } from '../core/logger.js';
import type { EngineJournal } from '../engine/tracking/engineJournal.js';
import { journalFileProblem, readJournalFileState, type JournalFileState } from './journalFileWatch.js';

interface KeptRecord {
  /** The engine hook or journal method the record is for (the fallback file names it). */
  readonly hook: string;
  readonly args: readonly unknown[];
  /** Writes it to the journal. */
  readonly write: () => void;
}

/** What the bot does when the journal stops or resumes taking writes (the engine's trading conditions). */
export interface JournalHealthTarget {
  journalDown(reason: string): void;
  journalUp(): void;
}

export interface ResilientEngineJournalOptions {
  readonly inner: EngineJournal;
  readonly journalPath: string;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  readonly clock: Clock;
  /** Where kept records are appended while the journal is down (default `<journal>.fallback.jsonl`). */
  readonly fallbackPath?: string;
  readonly append?: (path: string, text: string) => void;
  /** How the file is read each second (default: stat and its first 16 bytes). */
  readonly fileState?: (path: string) => JournalFileState | undefined;
}

/**
 * The engine's journal hooks, never failing the engine: a write the journal refuses (disk full,
 * I/O error) or a journal file that vanished turns the journal "down". Opening stops at once (the
 * trading conditions refuse it, JOURNAL_DOWN) while cancels and closes still go out; every record
 * meanwhile is kept in memory, in order, and appended to a fallback file beside the journal, and
 * written to the journal when it takes writes again (`retry`, every second while down). A journal
 * that fails closed would strand orders: the emergency cancels are journaled too.
 */
export class ResilientEngineJournal implements EngineJournal {
  private readonly kept: KeptRecord[] = [];
  private downReason: string | undefined;
  /** The file was removed, replaced or cut: writes would be lost or damage it further. */
  private vanished = false;
  private target: JournalHealthTarget | undefined;
  private readonly opened: JournalFileState | undefined;
  private lastSeen: JournalFileState | undefined;
  private readonly fallbackPath: string;
  private fallbackFailed = false;

  constructor(private readonly o: ResilientEngineJournalOptions) {
    this.opened = this.fileStateNow();
    this.fallbackPath = o.fallbackPath ?? `${o.journalPath}.fallback.jsonl`;
  }

  /** Where down and up go; set once the engine exists. */
  attach(target: JournalHealthTarget): void {
    this.target = target;
    if (this.downReason !== undefined) target.journalDown(this.downReason);
  }

  get isDown(): boolean {
    return this.downReason !== undefined;
  }

  /** Records not yet in the journal. */
  get keptCount(): number {
    return this.kept.length;
  }

  get path(): string {
    return this.o.journalPath;
  }

  get fallbackFile(): string {
    return this.fallbackPath;
  }

  /** The records not yet in the journal, in order (for the last report when it never came back). */
  keptRecords(): readonly { readonly hook: string; readonly args: readonly unknown[] }[] {
    return this.kept.map(({ hook, args }) => ({ hook, args }));
  }

  intentReceived(...args: Parameters<EngineJournal['intentReceived']>): void {
    this.write('intentReceived', args);
  }

  nonceAllocated(...args: Parameters<EngineJournal['nonceAllocated']>): void {
    this.write('nonceAllocated', args);
  }

  requestSent(...args: Parameters<EngineJournal['requestSent']>): void {
    this.write('requestSent', args);
  }

  responseReceived(...args: Parameters<EngineJournal['responseReceived']>): void {
    this.write('responseReceived', args);
  }

  outcome(...args: Parameters<EngineJournal['outcome']>): void {
    this.write('outcome', args);
  }

  /** Notices a journal file that was removed, replaced or truncated (writes would be lost). Call every second. */
  checkFile(): void {
    if (this.vanished || this.o.journalPath === ':memory:') return;
    const now = this.fileStateNow();
    const problem = journalFileProblem(this.opened, this.lastSeen, now);
    this.lastSeen = now;
    if (problem === undefined) return;
    this.vanished = true;
    this.goDown(problem);
  }

  /** The file is damaged in place (a periodic integrity check): writes would land on bad pages, so it stays down. */
  damaged(reason: string): void {
    if (this.vanished) return;
    this.vanished = true;
    this.goDown(reason);
  }

  /** Writes what was kept, in order; true once everything is in the journal again. */
  retry(): boolean {
    if (this.downReason === undefined) return true;
    if (this.vanished) return false;
    while (this.kept.length > 0) {
      const record = this.kept[0] as KeptRecord;
      try {
        record.write();
      } catch {
        return false;
      }
      this.kept.shift();
    }
    this.o.log.info(
      { journal: this.o.journalPath },
      'journal takes writes again: the records kept meanwhile are written',
    );
    this.downReason = undefined;
    this.target?.journalUp();
    return true;
  }

  /**
   * A write of the journal other than the engine's hooks (orders, fills, positions, strategy
   * state): made now while the journal takes writes; otherwise (or when it fails) kept in order
   * with the engine's records, and `whileDown` answers for it.
   */
  writeThrough<T>(hook: string, args: readonly unknown[], write: () => T, whileDown: () => T): T {
    if (this.downReason === undefined) {
      try {
        return write();
      } catch (error) {
        this.goDown(describe(error));
      }
    }
    this.keep({ hook, args, write });
    return whileDown();
  }

  private write(hook: keyof EngineJournal, args: readonly unknown[]): void {
    const inner: Record<string, unknown> = this.o.inner as unknown as Record<string, unknown>;
    this.writeThrough(
      hook,
      args,
      () => (inner[hook] as (...a: unknown[]) => void).apply(this.o.inner, [...args]),
      () => undefined,
    );
  }

  private goDown(reason: string): void {
    if (this.downReason !== undefined) return;
    this.downReason = reason;
    this.o.log.error(
      { journal: this.o.journalPath, reason, fallback: this.fallbackPath },
      'journal cannot be written: opening stopped, cancels and closes go on, their records kept and appended to the fallback file',
    );
    this.target?.journalDown(reason);
  }

  private keep(record: KeptRecord): void {
    this.kept.push(record);
    if (this.fallbackFailed) return;
    try {
      const line = JSON.stringify({ at: this.o.clock.now(), hook: record.hook, args: record.args }, bigintText);
      (this.o.append ?? appendOwnerOnly)(this.fallbackPath, `${line}\n`);
    } catch (error) {
      this.fallbackFailed = true;
      this.o.log.warn(
        { fallback: this.fallbackPath, reason: describe(error) },
        'the fallback file cannot be written either: records are kept in memory only until the journal takes writes',
      );
    }
  }

  private fileStateNow(): JournalFileState | undefined {
    if (this.o.journalPath === ':memory:') return undefined;
    return (this.o.fileState ?? readJournalFileState)(this.o.journalPath);
  }
}

/** 0600, and a symlink planted at the fallback's path is refused, never followed (`appendPrivateFileSync`). */
function appendOwnerOnly(path: string, text: string): void {
  appendPrivateFileSync(path, text);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
  return `${error.message}${code}`;
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
