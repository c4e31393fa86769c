import { resolve } from 'node:path';
import type { Journal } from '../../../journal/journal.js';
import { acquireJournalLock } from '../../../journal/journalLock.js';
import { openJournal } from '../../../journal/openJournal.js';
import { reconcileWithVenue } from '../../../journal/reconcileWithVenue.js';
import { describeBalance, describeDifference } from '../../../journal/reconciliationReport.js';
import { accountOf } from '../accountFlag.js';
import {
  cliVenueWait,
  configuredMarkets,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  remoteVenue,
} from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';
import { booleanFlag } from '../parseCommandArgs.js';
import { readsWithSignal } from '../readsWithSignal.js';

/** `perpbot reconcile`: the journal compared with the venue; with --apply the resolutions journaled. */
export async function runReconcile(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = await loadCliConfig(args, io);
  const venue = remoteVenue(config, 'reconcile');
  const account = await accountOf(args.flags['account'], config, io);
  const log = createCliLogger(config, io.stderr);
  const rest = createCliRestClient(config, venue.restUrl, log);
  const journalPath = resolve(io.cwd, config.journal.path);
  // --apply writes what a bot writes at start: not beside a running bot.
  const lock = booleanFlag(args, 'apply') ? acquireJournalLock(journalPath, 'reconcile --apply') : undefined;
  let journal: Journal;
  try {
    journal = openJournal(journalPath);
  } catch (error) {
    lock?.release();
    throw error;
  }
  try {
    // Safe to run again after a failed read: with unknown orders left alone, every venue read
    // comes before the first journal write.
    const report = await cliVenueWait(
      config,
      io,
      log,
    )('reading the venue to reconcile the journal', (signal) =>
      reconcileWithVenue({
        journal,
        rest: readsWithSignal(rest, signal),
        account,
        markets: configuredMarkets(config),
        clock: io.clock,
        trigger: 'cli',
        unknownOrders: 'leave',
        apply: booleanFlag(args, 'apply'),
      }),
    );
    if (booleanFlag(args, 'json'))
      io.stdout.write(`${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
    else {
      io.stdout.write(`account  ${account}\njournal  ${journal.path}\n`);
      io.stdout.write(`${describeBalance(report.balance)}\n`);
      if (report.differences.length === 0) io.stdout.write('no differences: the journal matches the venue\n');
      for (const d of report.differences) io.stdout.write(`- ${describeDifference(d)}\n`);
      if (!report.ok) io.stdout.write('unresolved: some permits could still land; run again after their deadline\n');
    }
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    journal.close();
    lock?.release();
  }
}
