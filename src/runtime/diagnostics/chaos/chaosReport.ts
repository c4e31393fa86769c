import type { SimFaults } from '../../../sim/simContext.js';
import type { InvariantResult } from './audit/invariant.js';

/** What `perpbot chaos` found, as printed and as written by `--json`. */
export interface ChaosReport {
  readonly ok: boolean;
  readonly startedAt: string;
  /** Asked for, and what the strategies actually ran for (from the first start to the final stop). */
  readonly durationMs: number;
  readonly ranMs: number;
  /** After the run, faults off: how long until the bot traded again (at most a minute) before the stop. */
  readonly settleMs: number;
  readonly config: string;
  /** Where the journal, the bot's config and its logs are. */
  readonly dir: string;
  /** False when the temporary directory was removed (every invariant held and no --dir was given). */
  readonly dirKept: boolean;
  readonly account: string;
  readonly faults: SimFaults;
  readonly crash: boolean;
  readonly seed: number;
  readonly totals: {
    readonly ordersPlaced: number;
    readonly fills: number;
    readonly reconnects: number;
    readonly botRuns: number;
    readonly intents: number;
  };
  readonly invariants: readonly InvariantResult[];
}

export function reportJson(report: ChaosReport): string {
  return `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`;
}
