import { PerpbotError } from '../../core/perpbotError.js';

/** The command line itself is wrong: unknown command or flag, missing value, bad number. */
export class CliUsageError extends PerpbotError {
  constructor(message: string, hints: readonly string[] = []) {
    super(message, { code: 'CLI_USAGE', hints });
  }
}
