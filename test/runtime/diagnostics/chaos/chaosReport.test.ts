import { describe, expect, it } from 'vitest';
import type { InvariantResult } from '../../../../src/runtime/diagnostics/chaos/audit/invariant.js';
import { CHAOS_DEFAULT_FAULTS } from '../../../../src/runtime/diagnostics/chaos/chaosFaults.js';
import { formatProgress, ProgressDisplay } from '../../../../src/runtime/diagnostics/chaos/chaosProgress.js';
import { reportJson, type ChaosReport } from '../../../../src/runtime/diagnostics/chaos/chaosReport.js';
import { formatChaosReport } from '../../../../src/runtime/diagnostics/chaos/formatChaosReport.js';

function report(invariants: InvariantResult[]): ChaosReport {
  return {
    ok: invariants.every((i) => i.ok),
    startedAt: '2026-11-25T12:00:00.000Z',
    durationMs: 60_000,
    ranMs: 60_010,
    settleMs: 520,
    config: '/repo/config/default.yaml',
    dir: '/tmp/perpbot-chaos-x',
    dirKept: true,
    account: '0xabc',
    faults: CHAOS_DEFAULT_FAULTS,
    crash: true,
    seed: 1,
    totals: { ordersPlaced: 78, fills: 40, reconnects: 3, botRuns: 2, intents: 174 },
    invariants,
  };
}

const pass: InvariantResult = {
  id: 'kill_switch_trips',
  title: 'kill-switch trips',
  ok: true,
  measured: '0',
  data: {},
};
const fail: InvariantResult = {
  id: 'fills_journaled',
  title: 'fills journaled once',
  ok: false,
  measured: '2 missing, 0 twice, of 23 venue fills',
  detail: 'missing from the journal: 231, 235',
  data: {},
};

describe('formatChaosReport', () => {
  it('one row per invariant with PASS or FAIL, then why each failure failed and where the evidence is', () => {
    const text = formatChaosReport(report([pass, fail]));
    expect(text).toMatch(/kill-switch trips +PASS +0\n/);
    expect(text).toMatch(/fills journaled once +FAIL +2 missing, 0 twice, of 23 venue fills\n/);
    expect(text).toContain('fills journaled once: missing from the journal: 231, 235');
    expect(text).toContain('1 of 2 invariants failed');
    expect(text).toContain('journal, bot config and logs: /tmp/perpbot-chaos-x');
    expect(formatChaosReport(report([pass]))).toContain('all invariants held');
  });

  it('the JSON report round-trips with every field', () => {
    const r = report([pass]);
    expect(JSON.parse(reportJson(r))).toEqual(r);
  });
});

describe('ProgressDisplay', () => {
  const progress = {
    elapsedMs: 65_000,
    durationMs: 600_000,
    run: 2,
    ordersPlaced: 37,
    fills: 5,
    reconnects: 2,
    degradedPeriods: 1,
    degradedNow: true,
  };

  it('formats elapsed, orders, fills, reconnects and degraded', () => {
    expect(formatProgress(progress)).toBe('01:05/10:00  run 2  orders 37  fills 5  reconnects 2  degraded 1 (now)');
  });

  it('plain lines every 10 s off a terminal; one line rewritten every 2 s on one', () => {
    let plain = '';
    const lines = new ProgressDisplay({ write: (t) => void (plain += t) }, false);
    for (let t = 0; t <= 20_000; t += 1_000) lines.tick(t, () => progress);
    expect(plain.split('\n').filter(Boolean)).toHaveLength(3);
    expect(plain).not.toContain('\r');
    let tty = '';
    const screen = new ProgressDisplay({ write: (t) => void (tty += t) }, true);
    for (let t = 0; t <= 4_000; t += 1_000) screen.tick(t, () => progress);
    screen.note('crash');
    expect(tty.split('\r\x1b[K').filter(Boolean)).toEqual([
      formatProgress(progress),
      formatProgress(progress),
      formatProgress(progress),
      'crash\n',
    ]);
  });
});
