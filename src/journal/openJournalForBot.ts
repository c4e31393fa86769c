import { BotJournal } from './botJournal.js';
import type { JournalForBot, JournalForBotOptions } from './journalForBot.js';
import { openJournal } from './openJournal.js';
import { reconcileAtStart } from './reconcileAtStart.js';

/**
 * Opens the journal at the configured path, reconciles it with the venue before anything trades
 * (resolving what a previous run left in flight, waiting out permits that could still land), and
 * hands the engine its write-ahead hooks and the nonce high-water mark. Throws a JournalError
 * saying why when reconciliation cannot complete: the bot must not trade on a state it does not
 * know.
 */
export async function openJournalForBot(o: JournalForBotOptions): Promise<JournalForBot> {
  const journal = openJournal(o.path, o.writeFault === undefined ? {} : { writeFault: o.writeFault });
  await o.beforeStartReconciliation?.(journal);
  const startReport = await reconcileAtStart(o, journal);
  return new BotJournal(o, journal, startReport);
}
