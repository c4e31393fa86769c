import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's quick_check of the journal on a read-only connection in a worker thread, so a large
 * journal is read through without holding up the event loop (better-sqlite3 is synchronous).
 * CommonJS evaluated in the worker: it needs no TypeScript loader, in a checkout or installed.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const rows = db.pragma('quick_check');
  parentPort.postMessage({ problems: rows.map((row) => row.quick_check).filter((text) => text !== 'ok') });
} catch (error) {
  const code = error && typeof error.code === 'string' ? error.code : '';
  parentPort.postMessage(/^SQLITE_(CORRUPT|NOTADB)/.test(code) ? { problems: [String(error.message) + ' (' + code + ')'] } : { failed: String(error && error.message) });
} finally {
  if (db) db.close();
}
`;

/** What one check found: the problems (empty: sound), or why it could not look. */
export type IntegrityResult = { readonly problems: readonly string[] } | { readonly failed: string };

export function quickCheckInWorker(path: string): Promise<IntegrityResult> {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { path, module } });
    worker.unref();
    worker.once('message', (result: IntegrityResult) => resolve(result));
    worker.once('error', (error) => resolve({ failed: error.message }));
    worker.once('exit', (code) => resolve({ failed: `the check ended (exit ${code}) without a result` }));
  });
}

export interface JournalIntegrityWatchOptions {
  readonly path: string;
  /** Between the end of one check and the start of the next. */
  readonly everyMs: number;
  readonly now: () => number;
  /** The journal is damaged in place: stop opening (the resilient journal's `damaged`). */
  readonly onDamaged: (reason: string) => void;
  /** A check could not run (said once per reason; the next check tries again). */
  readonly onCheckFailed: (reason: string) => void;
  readonly check?: (path: string) => Promise<IntegrityResult>;
}

/**
 * The journal's structure checked while the bot runs (every `everyMs`, one check at a time): a
 * page damaged in place (a failing disk, another program writing into the file) stops opening
 * within a check, rather than going unnoticed until the next start refuses the file.
 */
export class JournalIntegrityWatch {
  private nextAt: number;
  private running = false;
  private damaged = false;
  private lastFailure: string | undefined;

  constructor(private readonly o: JournalIntegrityWatchOptions) {
    this.nextAt = o.now() + o.everyMs;
  }

  /** Called often (every second); starts a check when one is due. Resolves when a started check ends. */
  async tick(): Promise<void> {
    if (this.damaged || this.running || this.o.path === ':memory:' || this.o.now() < this.nextAt) return;
    this.running = true;
    try {
      const result = await (this.o.check ?? quickCheckInWorker)(this.o.path);
      this.judge(result);
    } finally {
      this.running = false;
      this.nextAt = this.o.now() + this.o.everyMs;
    }
  }

  private judge(result: IntegrityResult): void {
    if ('failed' in result) {
      if (result.failed !== this.lastFailure) this.o.onCheckFailed(result.failed);
      this.lastFailure = result.failed;
      return;
    }
    this.lastFailure = undefined;
    if (result.problems.length === 0) return;
    this.damaged = true;
    this.o.onDamaged(`the journal file is damaged in place: ${result.problems.slice(0, 3).join('; ')}`);
  }
}
