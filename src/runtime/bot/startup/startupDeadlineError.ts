import { inspect } from 'node:util';
import { PerpbotError } from '../../../core/perpbotError.js';
import { VenueTransportError } from '../../../venue/venueTransportError.js';

/**
 * A start-up step (or a command's venue reads) still failing transiently when its deadline came:
 * names the step, how long and how often it was tried, the last failure, and what to do.
 */
export class StartupDeadlineError extends PerpbotError {
  readonly step: string;
  readonly lastFailure: unknown;

  constructor(init: { step: string; deadlineMs: number; elapsedMs: number; attempts: number; lastFailure: unknown }) {
    const last = describeFailure(init.lastFailure);
    const unreachable = init.lastFailure instanceof VenueTransportError && init.lastFailure.kind === 'ConnectionFailed';
    super(
      `gave up ${init.step} after ${seconds(init.elapsedMs)} s (${init.attempts} attempt${init.attempts === 1 ? '' : 's'}): ${last}`,
      {
        code: 'STARTUP_DEADLINE',
        details: { step: init.step, deadlineMs: init.deadlineMs, elapsedMs: init.elapsedMs, attempts: init.attempts },
        hints: [
          unreachable
            ? 'check venue.rest_url in the config or PERPBOT_REST_URL, and that the venue is running'
            : 'the venue is failing or overloaded; check its status page or try again later',
          `venue.startup_deadline_ms (now ${init.deadlineMs}) sets how long to keep trying`,
        ],
        cause: init.lastFailure,
      },
    );
    this.step = init.step;
    this.lastFailure = init.lastFailure;
  }
}

/** An error by its message; anything else thrown as itself: a string as it is, other values as Node prints them. */
function describeFailure(failure: unknown): string {
  if (failure instanceof Error) return failure.message;
  if (failure === undefined) return 'no answer yet';
  return typeof failure === 'string' ? failure : inspect(failure, { depth: 2, breakLength: Infinity });
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
}
