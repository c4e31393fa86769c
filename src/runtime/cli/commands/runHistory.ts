import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { JournalError } from '../../../journal/journalError.js';
import { readJournalHistory } from '../../../journal/journalHistory.js';
import { formatJournalHistory } from '../journalHistoryText.js';
import { openJournal } from '../../../journal/openJournal.js';
import { loadCliConfig } from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';
import { booleanFlag, integerFlag, stringFlag } from '../parseCommandArgs.js';

/** `perpbot history`: the journal's recent orders and fills, read-only. */
export async function runHistory(args: ParsedArgs, io: CliIo): Promise<number> {
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
}
