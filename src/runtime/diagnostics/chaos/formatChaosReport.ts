import { formatMs } from './audit/formatMs.js';
import type { ChaosReport } from './chaosReport.js';

/** The report as a table, one row per invariant, then why each failed one failed. */
export function formatChaosReport(report: ChaosReport): string {
  const rows = report.invariants.map((i) => [i.title, i.ok ? 'PASS' : 'FAIL', i.measured] as const);
  const widths = [Math.max(9, ...rows.map((r) => r[0].length)), 6];
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i < widths.length ? c.padEnd(widths[i] ?? 0) : c))
      .join('  ')
      .trimEnd();
  const { totals } = report;
  const out = [
    '',
    `chaos: ${formatMs(report.ranMs)} under faults (then ${formatMs(report.settleMs)} to settle without), ${totals.botRuns} bot runs, ` +
      `${totals.ordersPlaced} orders placed, ${totals.fills} fills, ${totals.reconnects} reconnects`,
    '',
    line(['invariant', 'result', 'measured']),
    line(['-'.repeat(widths[0] ?? 9), '-'.repeat(6), '-'.repeat(8)]),
    ...rows.map(line),
  ];
  const failed = report.invariants.filter((i) => !i.ok);
  if (failed.length > 0) out.push('', ...failed.map((i) => `${i.title}: ${i.detail ?? 'failed'}`));
  out.push(
    '',
    report.ok ? 'all invariants held' : `${failed.length} of ${report.invariants.length} invariants failed`,
    report.dirKept
      ? `journal, bot config and logs: ${report.dir}`
      : 'journal, bot config and logs removed (pass --dir DIR to keep them)',
    '',
  );
  return out.join('\n');
}
