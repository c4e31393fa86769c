import { isTransientFailure } from '../venue/rest/requestFaults.js';
import type { Journal } from './journal.js';
import { JournalError } from './journalError.js';
import { journalOpenError } from './journalOpenError.js';
import type { JournalForBotOptions } from './journalForBot.js';
import { reconcileForBot } from './reconcileForBot.js';
import { describeDifference, type ReconciliationReport } from './reconciliationReport.js';

/**
 * The reconciliation before anything trades: begins the run and reconciles; while permits of a
 * previous run could still land (before `maxInFlightWaitMs`), waits for their deadline and
 * reconciles again. When it cannot complete, closes the journal and throws a JournalError saying
 * why (a read that failed transiently is rethrown as it is: the caller's start-up deadline decides
 * whether to try again): the bot must not trade on a state it does not know.
 */
export async function reconcileAtStart(o: JournalForBotOptions, journal: Journal): Promise<ReconciliationReport> {
  let report: ReconciliationReport;
  try {
    journal.beginRun(o.account, o.runId, o.clock.now());
    report = await waitOutPreviousPermits(o, journal);
  } catch (error) {
    journal.close();
    if (isTransientFailure(error)) throw error;
    // The journal's own refusal (read-only, full, damaged) is said as such, never as the venue's.
    if (isSqliteError(error)) throw journalOpenError(o.path, error, false);
    throw new JournalError('reconciliation with the venue failed at start: refusing to trade', {
      code: 'RECONCILE_FAILED',
      details: { path: o.path },
      hints: [
        'check the venue URLs and that the venue answers open orders, positions and nonce state',
        'run `perpbot reconcile` to see the differences',
      ],
      cause: error,
    });
  }
  if (!report.ok) {
    journal.close();
    throw incompleteError(report);
  }
  return report;
}

/** Reconciles until no permit of a previous run can land any more, or the wait would pass its limit. */
async function waitOutPreviousPermits(o: JournalForBotOptions, journal: Journal): Promise<ReconciliationReport> {
  const giveUpAt = o.clock.now() + o.maxInFlightWaitMs;
  let report = await reconcileForBot(o, journal, 'start');
  while (!report.ok && report.retryAtMs !== undefined && report.retryAtMs <= giveUpAt) {
    o.log.warn(
      { retryAtMs: report.retryAtMs },
      'permits of the previous run could still land: waiting for their deadline before trading',
    );
    await o.clock.sleep(Math.max(0, report.retryAtMs - o.clock.now()));
    const earlier = report.differences.filter((d) => d.type !== 'in_flight_unresolved');
    const next = await reconcileForBot(o, journal, 'start');
    // One report for the whole start: what the first pass resolved, then what the wait resolved.
    report = {
      ...next,
      differences: [...earlier, ...next.differences],
      toCancel: [...report.toCancel, ...next.toCancel],
    };
  }
  return report;
}

function incompleteError(report: ReconciliationReport): JournalError {
  const unresolved = report.differences.filter((d) => d.type === 'in_flight_unresolved').map(describeDifference);
  return new JournalError(
    `reconciliation could not resolve ${unresolved.length} in-flight intent(s): refusing to trade`,
    {
      code: 'RECONCILE_INCOMPLETE',
      details: { unresolved },
      hints: [
        'wait for their permit deadlines to pass and start again',
        'run `perpbot reconcile` to see the differences',
      ],
    },
  );
}

function isSqliteError(error: unknown): boolean {
  return (
    error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('SQLITE_')
  );
}
