import type { ErrorCode } from '../../../core/errorCodes.js';
import { PerpbotError } from '../../../core/perpbotError.js';

/**
 * A private key that cannot be used: missing, malformed, or in a file others can read. Says where
 * the key was looked for and how to fix it; never contains the key or any part of it.
 */
export class KeyError extends PerpbotError {
  /** The environment variable or file the key came from. */
  readonly origin: string;

  constructor(
    origin: string,
    message: string,
    hints: readonly string[],
    code: Extract<ErrorCode, `KEY_${string}`> = 'KEY_INVALID',
    cause?: unknown,
  ) {
    super(message, { code, details: { origin }, hints, cause });
    this.origin = origin;
  }
}
