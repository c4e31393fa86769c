import { PerpbotError } from '../../core/perpbotError.js';
import type { SweepObjective } from '../config/sweepSchema.js';
import { combineMetrics, type SweepMetrics } from './sweepMetrics.js';
import { jobKey, type StudyWindow } from './sweepPlan.js';
import { parseConstraint, rankEntries, type RankedEntry } from './sweepRanking.js';
import type { Variant } from './sweepVariants.js';
import type { Study, StudyHeader } from './studyFile.js';

/** A window's variant: tuned on the train span (in sample), judged on the test span (out of sample). */
export interface WindowEntry {
  readonly variant: Variant;
  readonly inSample: SweepMetrics;
  readonly outOfSample: SweepMetrics;
}

export interface WindowSummary {
  readonly window: StudyWindow;
  /** Every variant of the window ranked by its in-sample figures. */
  readonly ranked: readonly RankedEntry<WindowEntry>[];
  /** The best feasible variant in sample: what walk-forward would have traded on the test span. */
  readonly pick: RankedEntry<WindowEntry> | undefined;
}

export interface SweepSummary {
  readonly header: StudyHeader;
  /** Results in the study against results it needs. */
  readonly done: number;
  readonly total: number;
  /** Without walk-forward: every variant ranked by its figures over the whole recordings. */
  readonly ranking: readonly RankedEntry<Variant>[];
  readonly windows: readonly WindowSummary[];
  /** With walk-forward: the picks' out-of-sample figures together, and their in-sample ones. */
  readonly walkForward: { readonly outOfSample: SweepMetrics; readonly inSample: SweepMetrics } | undefined;
  /** The variant to trade: the best feasible one, or with walk-forward the last window's pick. */
  readonly chosen: Variant | undefined;
}

/**
 * What a study says, from its results alone (each replay's report figures): the ranking by the
 * objective with the constraints applied, and with walk-forward each window's in-sample ranking
 * with the out-of-sample figures beside, so a variant that only fits its train span shows.
 */
export function summarizeStudy(study: Study, objective: SweepObjective = study.header.objective): SweepSummary {
  const { header } = study;
  const constraints = header.constraints.map(parseConstraint);
  const metrics = (variant: Variant, recording: string, span: string): SweepMetrics | undefined =>
    study.results.get(jobKey(variant.id, recording, span))?.metrics;
  checkObjective(study, objective);
  const total = header.variants.length * header.spans.length;
  if (header.windows.length === 0) {
    const entries = header.variants.flatMap((variant) => {
      const runs = header.spans.map((s) => metrics(variant, s.recording, s.id));
      return runs.every((m) => m !== undefined) ? [{ entry: variant, metrics: combineMetrics(runs) }] : [];
    });
    const ranking = rankEntries(entries, objective, constraints);
    const best = ranking[0];
    return {
      header,
      done: study.results.size,
      total,
      ranking,
      windows: [],
      walkForward: undefined,
      chosen: best?.feasible === true ? best.entry : undefined,
    };
  }
  const windows = header.windows.map((window): WindowSummary => {
    const entries = header.variants.flatMap((variant) => {
      const inSample = metrics(variant, window.recording, window.train);
      const outOfSample = metrics(variant, window.recording, window.test);
      return inSample === undefined || outOfSample === undefined
        ? []
        : [{ entry: { variant, inSample, outOfSample }, metrics: inSample }];
    });
    const ranked = rankEntries(entries, objective, constraints);
    return { window, ranked, pick: ranked[0]?.feasible === true ? ranked[0] : undefined };
  });
  const picks = windows.flatMap((w) => (w.pick === undefined ? [] : [w.pick.entry]));
  return {
    header,
    done: study.results.size,
    total,
    ranking: [],
    windows,
    walkForward:
      picks.length === 0
        ? undefined
        : {
            outOfSample: combineMetrics(picks.map((p) => p.outOfSample)),
            inSample: combineMetrics(picks.map((p) => p.inSample)),
          },
    chosen: windows[windows.length - 1]?.pick?.entry.variant,
  };
}

/** Ranking by quote uptime needs replay reports that carry it. */
function checkObjective(study: Study, objective: SweepObjective): void {
  if (objective !== 'quote_uptime' || study.results.size === 0) return;
  if ([...study.results.values()].some((r) => r.metrics.quoteUptime !== null)) return;
  throw new PerpbotError('the replay reports of this study carry no quote uptime figure to rank by', {
    code: 'SWEEP_OBJECTIVE',
    hints: [
      'rank by net_pnl, sharpe, max_drawdown or fills (--objective), or replay with a perpbot whose report has it',
    ],
  });
}
