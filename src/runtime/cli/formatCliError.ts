import { inspect } from 'node:util';
import { isPerpbotError } from '../../core/perpbotError.js';
import { printable } from '../../core/printable.js';
import { redactText } from '../../core/redactor.js';

/**
 * What a failed command prints on stderr: one line, the error's message and its hints, with no
 * stack trace (unless verbose). Secrets are scrubbed even from messages we did not write, and
 * control characters are shown escaped (a message may quote a file or a peer: a recording's line).
 */
export function formatCliError(error: unknown, verbose: boolean): string {
  const line = `perpbot: ${oneLine(error)}`;
  if (!verbose) return `${redactText(printable(line))}\n`;
  const detail = error instanceof Error ? (error.stack ?? '') : inspect(error);
  const causes: string[] = [];
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    causes.push(`caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : inspect(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return `${redactText(printable([line, detail, ...causes].join('\n'), true))}\n`;
}

function oneLine(error: unknown): string {
  if (isPerpbotError(error) && error.code === 'VENUE_CONNECTION_FAILED') {
    // A command that cannot reach the venue at all: the URL is the first thing to check.
    return `${flatten(error.message)} (check venue.rest_url in the config or PERPBOT_REST_URL, and that the venue is running)`;
  }
  if (isPerpbotError(error)) return flatten(error.describe());
  if (error instanceof Error)
    return `${flatten(error.message)} (unexpected ${error.name}; run again with --verbose for the stack)`;
  return `${flatten(String(error))} (unexpected failure; run again with --verbose)`;
}

function flatten(text: string): string {
  return text.replace(/\s*\n\s*/g, '; ');
}
