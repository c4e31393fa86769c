import { describe, expect, it } from 'vitest';
import type { SweepMetrics } from '../../../src/runtime/sweep/sweepMetrics.js';
import { sweepMetricsOf } from './support/sweepMetricsOf.js';
import { renderSweepHtml } from '../../../src/runtime/sweep/sweepHtml.js';
import { summarizeStudy } from '../../../src/runtime/sweep/sweepSummary.js';
import type { Study, StudyHeader, StudyResult } from '../../../src/runtime/sweep/studyFile.js';

const HOSTILE = 'mm</script><script>window.injected = 1</script>';

const m = sweepMetricsOf;

function study(header: Partial<StudyHeader>, results: [string, SweepMetrics][]): Study {
  const full: StudyHeader = {
    type: 'study',
    version: 1,
    fingerprint: 'f',
    config: '',
    strategy: HOSTILE,
    objective: 'net_pnl',
    constraints: ['max_drawdown <= 5'],
    top: 5,
    recordings: [{ id: 'r1', run: 'run', startMs: 0, endMs: 120_000, frames: 10, sha256: 'x' }],
    spans: [{ id: 'full', recording: 'r1', fromMs: 0, toMs: null }],
    windows: [],
    variants: [
      { id: 'v1', params: { spread_bps: 2 } },
      { id: 'v2', params: { spread_bps: 4 } },
      { id: 'v3', params: { spread_bps: 8 } },
    ],
    ...header,
  };
  const map = new Map<string, StudyResult>(
    results.map(([job, metrics]) => {
      const [variant, recording, span] = job.split('/') as [string, string, string];
      return [job, { type: 'result', job, variant, recording, span, metrics, report: 'r.json', reportSha256: 'x' }];
    }),
  );
  return { header: full, results: map };
}

describe('sweep summary and page', () => {
  it('ranks whole-recording results under the constraints and chooses the best feasible variant', () => {
    const summary = summarizeStudy(
      study({}, [
        ['v1/r1/full', m('9', '7')],
        ['v2/r1/full', m('3')],
        ['v3/r1/full', m('5')],
      ]),
    );
    expect(summary.ranking.map((r) => [r.entry.id, r.feasible])).toEqual([
      ['v3', true],
      ['v2', true],
      ['v1', false],
    ]);
    expect(summary.chosen?.id).toBe('v3');
    expect(summary.done).toBe(3);
    const page = renderSweepHtml(summary, []);
    expect(page).not.toContain('<script>window.injected');
    expect(page).toContain('data-variant="v3" class="top"');
    expect(page).toContain('no: max_drawdown &#60;= 5');
    expect(renderSweepHtml(summary, [])).toBe(page);
  });

  it('with walk-forward: each window ranks on its train span, the test figures beside, the picks summed out of sample', () => {
    const windows = [
      { recording: 'r1', index: 1, train: 'a', test: 'b' },
      { recording: 'r1', index: 2, train: 'b', test: 'c' },
    ];
    const spans = ['a', 'b', 'c'].map((id) => ({ id, recording: 'r1', fromMs: 0, toMs: 1 }));
    const summary = summarizeStudy(
      study({ windows, spans }, [
        ['v1/r1/a', m('4')],
        ['v1/r1/b', m('-1')],
        ['v1/r1/c', m('2')],
        ['v2/r1/a', m('1')],
        ['v2/r1/b', m('3')],
        ['v2/r1/c', m('-2')],
        ['v3/r1/a', m('2')],
        ['v3/r1/b', m('0.5')],
        ['v3/r1/c', m('0.25')],
      ]),
    );
    expect(summary.ranking).toEqual([]);
    expect(summary.windows.map((w) => w.pick?.entry.variant.id)).toEqual(['v1', 'v2']);
    // v1 picked on a (4) traded b (-1); v2 picked on b (3) traded c (-2).
    expect(summary.walkForward?.inSample.netPnl).toBe('7');
    expect(summary.walkForward?.outOfSample.netPnl).toBe('-3');
    expect(summary.chosen?.id).toBe('v2');
    const page = renderSweepHtml(summary, []);
    expect(page).toContain('data-window="2"');
    expect(page).toContain('data-testid="wf-oos">-3<');
  });

  it('refuses to rank by quote uptime when no report carries it', () => {
    const s = study({ objective: 'quote_uptime' }, [['v1/r1/full', m('1')]]);
    expect(() => summarizeStudy(s)).toThrow(/carry no quote uptime figure/);
    const withUptime = study({ objective: 'quote_uptime' }, [
      ['v1/r1/full', { ...m('1'), quoteUptime: 0.5 }],
      ['v2/r1/full', { ...m('1'), quoteUptime: 0.9 }],
      ['v3/r1/full', { ...m('1'), quoteUptime: null }],
    ]);
    expect(summarizeStudy(withUptime).ranking.map((r) => r.entry.id)).toEqual(['v2', 'v1', 'v3']);
  });
});
