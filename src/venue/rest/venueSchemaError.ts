import type { z } from 'zod';
import { PerpbotError } from '../../core/perpbotError.js';

export interface SchemaIssue {
  /** Dotted path inside the body, e.g. "data.markets.0.config.step_size"; "" for the whole body. */
  readonly path: string;
  readonly message: string;
}

/**
 * A body that does not match its schema: a request we refused to send, or a 2xx answer we could
 * not read. Only issue paths and schema messages are shown, never the body's values (which may
 * hold signatures or tokens).
 */
export class VenueSchemaError extends PerpbotError {
  readonly endpoint: string;
  readonly direction: 'request' | 'response';
  readonly issues: readonly SchemaIssue[];

  constructor(init: {
    endpoint: string;
    direction: 'request' | 'response';
    issues: readonly SchemaIssue[];
    executed?: boolean;
    cause?: unknown;
  }) {
    const shown = init.issues
      .slice(0, 5)
      .map((issue) => `${issue.path === '' ? '(body)' : issue.path}: ${issue.message}`)
      .join('; ');
    const more = init.issues.length > 5 ? `; and ${init.issues.length - 5} more` : '';
    const hints =
      init.direction === 'request'
        ? ['fix the request fields; nothing was sent']
        : init.executed === true
          ? [
              'the venue accepted the request (2xx), so the action executed; only its answer could not be read',
              'check the venue profile: the venue may have changed its answer shape',
            ]
          : ['check the venue profile: the venue may have changed its answer shape'];
    super(`${init.endpoint}: ${init.direction} body does not match the schema: ${shown}${more}`, {
      code: init.direction === 'request' ? 'VENUE_REQUEST_INVALID' : 'VENUE_RESPONSE_INVALID',
      details: { endpoint: init.endpoint, direction: init.direction, issues: init.issues },
      hints,
      cause: init.cause,
    });
    this.endpoint = init.endpoint;
    this.direction = init.direction;
    this.issues = Object.freeze([...init.issues]);
  }
}

export function schemaIssues(error: z.ZodError): SchemaIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
