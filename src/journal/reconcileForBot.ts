import type { Engine } from '../engine/engine.js';
import type { Logger } from '../core/logger.js';
import type { FillRecord } from '../venue/schemas/wsFramesPrivate.js';
import type { VenueSnapshot } from '../venue/state/venueSnapshot.js';
import type { Journal } from './journal.js';
import type { JournalForBotOptions } from './journalForBot.js';
import { reconcileWithVenue } from './reconcileWithVenue.js';
import { describeDifference, type ReconciliationReport } from './reconciliationReport.js';

/**
 * One reconciliation as the running bot makes it: applied to the journal, this run's own in-flight
 * intents left to the engine, and logged (each difference a warning). `engine`, once it runs: the
 * missed fills, and what is inferred of the orders it holds, go through its tracker, so they are
 * counted once (its ledger is the journal), strategies and their budgets hear them, and the
 * journal records what the tracker made of them.
 */
export async function reconcileForBot(
  o: JournalForBotOptions,
  journal: Journal,
  trigger: ReconciliationReport['trigger'],
  given: {
    readonly closedSinceMs?: number | undefined;
    readonly engine?: Engine | undefined;
    /** The venue as already read for this reconciliation (see `ReconcileOptions.snapshot`). */
    readonly snapshot?: VenueSnapshot | undefined;
  } = {},
): Promise<ReconciliationReport> {
  const { closedSinceMs, engine, snapshot } = given;
  const report = await reconcileWithVenue({
    journal,
    rest: o.rest,
    account: o.account,
    markets: o.markets,
    clock: o.clock,
    trigger,
    currentRunId: o.runId,
    unknownOrders: o.unknownOrders,
    adopter: o.adopter,
    apply: true,
    ...(closedSinceMs === undefined ? {} : { closedSinceMs }),
    ...(snapshot === undefined ? {} : { snapshot }),
    ...(engine === undefined
      ? {}
      : {
          countHistoryFill: (fill: FillRecord) => engine.tracker.onFill(fill, 'history') !== undefined,
          live: engine.tracker,
        }),
  });
  logReport(o.log, trigger, report);
  return report;
}

function logReport(log: Logger, trigger: ReconciliationReport['trigger'], report: ReconciliationReport): void {
  if (report.historyUnavailable !== undefined) {
    log.warn(
      { trigger, reason: report.historyUnavailable },
      `reconciliation (${trigger}): the venue's history could not be read; missed fills and order fates inferred from the position (inferred: history unavailable)`,
    );
  }
  for (const d of report.differences)
    log.warn({ difference: d }, `reconciliation (${trigger}): ${describeDifference(d)}`);
  log.info(
    { trigger, ok: report.ok, differences: report.differences.length, balance: report.balance },
    'reconciliation done',
  );
}
