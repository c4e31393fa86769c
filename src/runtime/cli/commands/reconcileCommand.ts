import { resolve } from 'node:path';
import type { Journal } from '../../journal/journal.js';
import { acquireJournalLock } from '../../journal/journalLock.js';
import { openJournal } from '../../journal/openJournal.js';
import { reconcileWithVenue } from '../../journal/reconcileWithVenue.js';
import { describeBalance, describeDifference } from '../../journal/reconciliationReport.js';
import { accountOf, ACCOUNT_FLAG } from '../accountFlag.js';
import {
  cliVenueWait,
  configuredMarkets,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  remoteVenue,
} from '../cliContext.js';
import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';
import { booleanFlag } from '../parseCommandArgs.js';
import { readsWithSignal } from '../readsWithSignal.js';

export const reconcileCommand: CommandSpec = {
  name: 'reconcile',
  summary: 'compare the journal with the venue and print the differences',
  usage: 'perpbot reconcile [--config FILE] [--apply] [--json] [--account ADDRESS]',
  description:
    'Reads open orders, positions, the cross-margin balance and the nonce state from the venue and compares them with the journal ' +
    '(the balance against the last snapshot journaled). ' +
    'Without --apply nothing is written (safe while a bot runs); with --apply the resolutions are journaled, as a bot does at start, ' +
    'and the journal must not be in use by a running bot. ' +
    'Only reads are sent to the venue, so no key is needed with --account.',
  flags: {
    ...CONFIG_FLAGS,
    apply: { type: 'boolean', description: 'journal the resolutions (only while no bot uses this journal)' },
    json: { type: 'boolean', description: 'print the report as JSON' },
    account: ACCOUNT_FLAG,
  },
  async run(args, io) {
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
        io.stdout.write(
          `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`,
        );
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
  },
};
