import { describe, expect, it } from 'vitest';
import { formatSweepBar, SweepProgressDisplay } from '../../../src/runtime/sweep/sweepProgress.js';

function sink(): { readonly text: () => string; write(t: string): void } {
  let out = '';
  return { text: () => out, write: (t) => void (out += t) };
}

describe('sweep progress', () => {
  it('a bar with the share done, the time so far and the time left at the pace so far', () => {
    expect(formatSweepBar({ done: 0, of: 12, elapsedMs: 3_000 })).toBe(
      '[------------------------] 0/12  0%  elapsed 0:03  ETA --',
    );
    // 5 of 12 in 21 s: 4.2 s a replay, 7 left: 29.4 s.
    expect(formatSweepBar({ done: 5, of: 12, elapsedMs: 21_000 })).toBe(
      '[##########--------------] 5/12  41%  elapsed 0:21  ETA 0:29',
    );
    expect(formatSweepBar({ done: 1, of: 3, elapsedMs: 3_600_000 })).toContain('elapsed 1:00:00  ETA 2:00:00');
    expect(formatSweepBar({ done: 4, of: 4, elapsedMs: 1_000 })).toMatch(/^\[#{24}\] 4\/4 {2}100% .* ETA 0:00$/);
  });

  it('on a terminal the bar stays under the lines, rewritten in place', () => {
    const out = sink();
    const display = new SweepProgressDisplay(out, true);
    display.advance({ done: 0, of: 2, elapsedMs: 0 });
    display.line('[1/2] v1/r1/full: net 1');
    display.advance({ done: 1, of: 2, elapsedMs: 1_000 });
    display.done();
    const bar0 = formatSweepBar({ done: 0, of: 2, elapsedMs: 0 });
    const bar1 = formatSweepBar({ done: 1, of: 2, elapsedMs: 1_000 });
    const clear = '\r\x1b[K';
    expect(out.text()).toBe(`${bar0}${clear}[1/2] v1/r1/full: net 1\n${bar0}${clear}${bar1}${clear}`);
  });

  it('elsewhere (a log file, CI) only the lines, no bar and no carriage return', () => {
    const out = sink();
    const display = new SweepProgressDisplay(out, false);
    display.advance({ done: 0, of: 2, elapsedMs: 0 });
    display.line('[1/2] v1/r1/full: net 1');
    display.advance({ done: 1, of: 2, elapsedMs: 1_000 });
    display.done();
    expect(out.text()).toBe('[1/2] v1/r1/full: net 1\n');
  });
});
