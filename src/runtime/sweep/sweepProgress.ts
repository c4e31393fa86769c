import type { TextSink } from '../../core/textSink.js';

/** How far a sweep has got: replays finished of those this run has to do, and since when. */
export interface SweepAdvance {
  readonly done: number;
  readonly of: number;
  readonly elapsedMs: number;
}

const BAR_WIDTH = 24;

/** "1:05", "12:00:03": minutes and seconds, hours when there are any. */
function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${Math.floor(s / 60)}:${ss}`;
}

/**
 * `[##########--------------] 5/12  42%  elapsed 0:21  ETA 0:29`: the time left is the time so far
 * per replay finished, times those left (unknown until one has finished).
 */
export function formatSweepBar(a: SweepAdvance): string {
  const share = a.of === 0 ? 1 : a.done / a.of;
  const filled = Math.round(share * BAR_WIDTH);
  const eta = a.done === 0 ? '--' : duration((a.elapsedMs / a.done) * (a.of - a.done));
  return (
    `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${a.done}/${a.of}  ${Math.floor(share * 100)}%  ` +
    `elapsed ${duration(a.elapsedMs)}  ETA ${eta}`
  );
}

/**
 * A sweep's progress on stderr: every line the sweep says, and on a terminal a bar with the time
 * left kept under them, redrawn in place (a log file or CI output gets the lines only, no carriage
 * returns).
 */
export class SweepProgressDisplay {
  private drawn: SweepAdvance | undefined;

  constructor(
    private readonly sink: TextSink,
    private readonly tty: boolean,
  ) {}

  /** A line of its own, above the bar. */
  line(text: string): void {
    this.clear();
    this.sink.write(`${text}\n`);
    if (this.drawn !== undefined) this.draw(this.drawn);
  }

  /** The bar as it now stands (on a terminal only). */
  advance(advance: SweepAdvance): void {
    if (!this.tty) return;
    this.clear();
    this.draw(advance);
  }

  /** The bar goes before the summary is printed. */
  done(): void {
    this.clear();
    this.drawn = undefined;
  }

  private draw(advance: SweepAdvance): void {
    this.sink.write(formatSweepBar(advance));
    this.drawn = advance;
  }

  private clear(): void {
    if (this.drawn !== undefined) this.sink.write('\r\x1b[K');
  }
}
