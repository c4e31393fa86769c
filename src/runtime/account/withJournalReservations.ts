import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { NonceReservations } from '../../engine/nonces/oneShotNonces.js';
import { journalEngineHooks } from '../../journal/journalEngineHooks.js';
import type { Journal } from '../../journal/journal.js';
import { acquireJournalLock } from '../../journal/journalLock.js';
import { openJournal } from '../../journal/openJournal.js';

/**
 * Runs a one-shot command (cancel-all, setup, revoke-signer) with the bot's journal as its nonce
 * reservations, the road the bot's own nonces take: allocation resumes above the highest pair any
 * run reserved (a crashed bot's permits may still land), and each pair is recorded before it is
 * signed, so the next bot never hands it out again. The journal is open only while `run` runs;
 * without a path, nothing is reserved. It holds the journal's lock meanwhile: a running bot's
 * nonces are its own.
 */
export async function withJournalReservations<T>(
  journalPath: string | undefined,
  account: Address,
  command: { readonly name: string; readonly clock: Clock },
  run: (reservations: NonceReservations | undefined) => Promise<T>,
): Promise<T> {
  if (journalPath === undefined) return run(undefined);
  const lock = acquireJournalLock(journalPath, command.name);
  let journal: Journal;
  try {
    journal = openJournal(journalPath);
  } catch (error) {
    lock.release();
    throw error;
  }
  // Not a bot run: no row in `runs` (which would move where a bot's fill history starts), only nonces.
  const hooks = journalEngineHooks(journal, account, `${command.name}-${command.clock.now()}`);
  try {
    return await run({
      highWater: () => journal.nonceHighWater(account),
      reserve: (pair, purpose) => hooks.nonceAllocated(pair, purpose),
    });
  } finally {
    journal.close();
    lock.release();
  }
}
