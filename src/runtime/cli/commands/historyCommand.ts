import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { JournalError } from '../../journal/journalError.js';
import { formatJournalHistory, readJournalHistory } from '../../journal/journalHistory.js';
import { openJournal } from '../../journal/openJournal.js';
import { loadCliConfig } from '../cliContext.js';
import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';
import { booleanFlag, integerFlag, stringFlag } from '../parseCommandArgs.js';

export const historyCommand: CommandSpec = {
  name: 'history',
  summary: 'recent orders and fills from the journal',
  usage: 'perpbot history [--config FILE] [--limit N] [--json] [--account ADDRESS]',
  flags: {
    ...CONFIG_FLAGS,
    limit: { type: 'string', value: 'N', description: 'how many orders and how many fills (default 20)' },
    json: { type: 'boolean', description: 'print JSON instead of tables' },
    account: {
      type: 'string',
      value: 'ADDRESS',
      description: 'only this account (default: every account in the journal)',
    },
  },
  async run(args, io) {
    const limit = integerFlag(args, 'limit', 1, 100_000) ?? 20;
    const config = await loadCliConfig(args, io);
    const path = resolve(io.cwd, config.journal.path);
    if (!existsSync(path)) {
      throw new JournalError(`no journal at ${path}`, {
        code: 'JOURNAL_MISSING',
        details: { path },
        hints: ['run the bot once (perpbot start), or set journal.path in the config'],
      });
    }
    const journal = openJournal(path, { readonly: true });
    try {
      const history = readJournalHistory(journal, limit, stringFlag(args, 'account'));
      io.stdout.write(
        booleanFlag(args, 'json') ? `${JSON.stringify(history, null, 2)}\n` : formatJournalHistory(history),
      );
    } finally {
      journal.close();
    }
    return 0;
  },
};
