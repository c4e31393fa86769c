/**
 * Takes the journal lock at argv[2] in its own process (and, with argv[3] `open`, opens the journal
 * as a bot does), prints "held" (or the refusal's code and message as JSON) and then holds it
 * until stdin closes or the process is killed.
 */
import { acquireJournalLock } from '../../../src/journal/journalLock.js';
import { openJournal } from '../../../src/journal/openJournal.js';
import { isPerpbotError } from '../../../src/core/perpbotError.js';

const path = process.argv[2] ?? '';
try {
  const lock = acquireJournalLock(path, 'lock-test');
  if (process.argv[3] === 'open') openJournal(path);
  process.stdout.write(`held ${JSON.stringify(lock.tookOverFrom ?? null)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    lock.release();
    process.exit(0);
  });
} catch (error) {
  process.stdout.write(
    `${JSON.stringify(isPerpbotError(error) ? { code: error.code, message: error.message, hints: error.hints } : String(error))}\n`,
  );
  process.exit(3);
}
