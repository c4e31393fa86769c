import type { TextSink } from '../../../core/textSink.js';

/** The counters shown while a chaos run goes on. */
export interface ChaosProgress {
  readonly elapsedMs: number;
  readonly durationMs: number;
  readonly run: number;
  readonly ordersPlaced: number;
  readonly fills: number;
  readonly reconnects: number;
  readonly degradedPeriods: number;
  readonly degradedNow: boolean;
}

function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

export function formatProgress(p: ChaosProgress): string {
  return (
    `${clock(p.elapsedMs)}/${clock(p.durationMs)}  run ${p.run}  orders ${p.ordersPlaced}  fills ${p.fills}  ` +
    `reconnects ${p.reconnects}  degraded ${p.degradedPeriods}${p.degradedNow ? ' (now)' : ''}`
  );
}

/**
 * One status line every few seconds: on a terminal it is rewritten in place every 2 s, otherwise
 * a plain line goes out every 10 s (a log file or CI output gets no carriage returns). The caller
 * ticks it; it decides when to print.
 */
export class ProgressDisplay {
  private lastAt: number | undefined;
  private drawn = false;

  constructor(
    private readonly sink: TextSink,
    private readonly tty: boolean,
  ) {}

  /** `progress` is read only when a line is due. */
  tick(nowMs: number, progress: () => ChaosProgress): void {
    const every = this.tty ? 2_000 : 10_000;
    if (this.lastAt !== undefined && nowMs - this.lastAt < every) return;
    this.lastAt = nowMs;
    this.print(formatProgress(progress()));
  }

  /** A line of its own (a crash, a restart), without losing the status line on a terminal. */
  note(text: string): void {
    this.clear();
    this.sink.write(`${text}\n`);
  }

  /** Ends the status line before other output. */
  done(): void {
    this.clear();
  }

  private print(line: string): void {
    if (this.tty) {
      this.sink.write(`\r\x1b[K${line}`);
      this.drawn = true;
    } else {
      this.sink.write(`${line}\n`);
    }
  }

  private clear(): void {
    if (this.drawn) this.sink.write('\r\x1b[K');
    this.drawn = false;
  }
}
