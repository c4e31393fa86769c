import { PerpbotError } from '../core/perpbotError.js';

/** The journal could not be opened, migrated, read or written. */
export class JournalError extends PerpbotError {}
