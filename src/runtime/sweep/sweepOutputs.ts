import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayReport } from '../replay/replayReport.js';
import { bestConfigYaml } from './bestConfig.js';
import { renderSweepHtml, type VariantEquity } from './sweepHtml.js';
import type { SweepMetrics } from './sweepMetrics.js';
import { metricValue } from './sweepRanking.js';
import { summarizeStudy, type SweepSummary } from './sweepSummary.js';
import type { Study } from './studyFile.js';
import type { Variant } from './sweepVariants.js';

export interface SweepOutputs {
  readonly summary: SweepSummary;
  readonly page: string;
  /** Written only when the study is complete and a variant is feasible. */
  readonly best: string | undefined;
}

/**
 * What a study leaves beside study.jsonl: report.html (the page) and, once complete, best.yaml
 * (the config with the chosen variant). Both are drawn from the study and the replays' reports.
 */
export function writeSweepOutputs(out: string, study: Study): SweepOutputs {
  const summary = summarizeStudy(study);
  const page = join(out, 'report.html');
  writeFileSync(page, renderSweepHtml(summary, topEquity(out, study, summary)));
  let best: string | undefined;
  if (summary.done === summary.total && summary.chosen !== undefined && study.header.shard === undefined) {
    best = join(out, 'best.yaml');
    writeFileSync(best, bestConfigYaml(study.header.config, study.header.strategy, summary.chosen, whyChosen(summary)));
  }
  return { summary, page, best };
}

/** The top variants' equity over a whole recording (the first one's), when their reports are here. */
function topEquity(out: string, study: Study, summary: SweepSummary): VariantEquity[] {
  const span = study.header.spans.find((s) => s.toMs === null);
  if (span === undefined) return [];
  return summary.ranking.slice(0, study.header.top).flatMap((r) => {
    const result = study.results.get(`${r.entry.id}/${span.recording}/${span.id}`);
    const path = result === undefined ? undefined : join(out, result.report);
    if (path === undefined || !existsSync(path)) return [];
    const report = JSON.parse(readFileSync(path, 'utf8')) as ReplayReport;
    return [{ variant: r.entry.id, points: report.series.equity }];
  });
}

function whyChosen(summary: SweepSummary): string {
  const h = summary.header;
  const rule = `${h.objective}${h.constraints.length === 0 ? '' : ` with ${h.constraints.join(', ')}`}`;
  return summary.windows.length === 0
    ? `the best of ${h.variants.length} variants by ${rule}`
    : `the last walk-forward window's pick by ${rule} on its train span`;
}

/** The summary a sweep prints: the top variants with their figures, or each window's, and the choice. */
export function formatSweepSummary(
  summary: SweepSummary,
  files: { page: string; best: string | undefined; study: string },
): string {
  const h = summary.header;
  const lines: string[] = [];
  if (summary.windows.length === 0) {
    lines.push(`top ${Math.min(h.top, summary.ranking.length)} of ${summary.ranking.length} by ${h.objective}:`);
    for (const r of summary.ranking.slice(0, h.top))
      lines.push(
        `  ${r.rank}. ${variantText(r.entry)}: ${figuresText(r.metrics)}${r.feasible ? '' : ` (ruled out: ${r.violated.join('; ')})`}`,
      );
  }
  for (const w of summary.windows) {
    lines.push(
      `window ${w.window.index} (${w.window.recording} train ${w.window.train}, test ${w.window.test}), top by ${h.objective} in sample:`,
    );
    for (const r of w.ranked.slice(0, h.top))
      lines.push(
        `  ${r.rank}. ${variantText(r.entry.variant)}: ${h.objective} ${show(metricValue(r.entry.inSample, h.objective))} in sample, ` +
          `${show(metricValue(r.entry.outOfSample, h.objective))} out of sample${r.feasible ? '' : ' (ruled out)'}`,
      );
  }
  if (summary.walkForward !== undefined)
    lines.push(
      `walk-forward: the picks made net ${summary.walkForward.inSample.netPnl} in sample, ${summary.walkForward.outOfSample.netPnl} out of sample`,
    );
  lines.push(
    summary.chosen === undefined ? 'chosen: none (no feasible variant)' : `chosen: ${variantText(summary.chosen)}`,
  );
  lines.push(`study: ${files.study} (${summary.done} of ${summary.total} replays)`);
  lines.push(`page: ${files.page} (open it in a browser: it needs no network)`);
  if (files.best !== undefined) lines.push(`config: ${files.best} (the chosen variant; paper-trade it first)`);
  return `${lines.join('\n')}\n`;
}

function variantText(v: Variant): string {
  return `${v.id} ${Object.entries(v.params)
    .map(([k, value]) => `${k}=${String(value)}`)
    .join(' ')}`;
}

function figuresText(m: SweepMetrics): string {
  return `net ${m.netPnl}, sharpe ${show(m.sharpe)}, drawdown ${m.maxDrawdown}, fills ${m.fills}${m.quoteUptime === null ? '' : `, uptime ${m.quoteUptime}`}`;
}

const show = (value: string | number | null): string => (value === null ? '-' : String(value));
