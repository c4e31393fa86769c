import { PerpbotError } from './perpbotError.js';

/**
 * A wait or request cut short by an AbortSignal whose reason is not an Error (`abort('stop')`):
 * the reason is kept as `cause`, so the promise rejection still has a stack and a code. Printed, it reads
 * as the bare reason did, so a caller that showed the reason shows the same text.
 */
export class AbortedError extends PerpbotError {
  constructor(reason: unknown) {
    const shown = showReason(reason);
    super(shown, { code: 'ABORTED', details: { reason: shown }, cause: reason });
  }

  override toString(): string {
    return this.message;
  }
}

/**
 * What an aborted operation rejects with: the signal's reason itself when it is an Error (the
 * project's aborters always give one, and callers compare it by identity, as
 * `signal.throwIfAborted()` throws it), else an AbortedError carrying it.
 */
export function abortError(reason: unknown): Error {
  return reason instanceof Error ? reason : new AbortedError(reason);
}

function showReason(reason: unknown): string {
  try {
    return String(reason);
  } catch {
    return Object.prototype.toString.call(reason);
  }
}
