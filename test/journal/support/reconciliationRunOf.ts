import { ManualClock } from '../../../src/core/clock.js';
import type { Journal } from '../../../src/journal/journal.js';
import type { ReconcileOptions } from '../../../src/journal/reconcileOptions.js';
import type { ReconciliationInputs } from '../../../src/journal/reconciliationInputs.js';
import { ReconciliationRun } from '../../../src/journal/reconciliationRun.js';

/**
 * A reconciliation after a reconnect that applies what it finds, on a real journal, with the
 * inputs a test names (the rest of the options and inputs left out: the step under test reads
 * only these), its read begun at `atMs`.
 */
export function reconciliationRunOf(
  journal: Journal,
  account: string,
  inputs: Record<string, unknown>,
  atMs: number,
  options: Record<string, unknown> = {},
): ReconciliationRun {
  const all = { journal, account, trigger: 'reconnect', apply: true, clock: new ManualClock(atMs), ...options };
  return new ReconciliationRun(
    all as unknown as ReconcileOptions,
    { history: { available: true, fills: [] }, ...inputs } as unknown as ReconciliationInputs,
    atMs,
  );
}
