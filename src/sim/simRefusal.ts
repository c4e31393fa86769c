import { PerpbotError } from '../core/perpbotError.js';

/**
 * A refusal in the venue's own words: `text` is what goes into `error.message` (a gRPC-style
 * status name, a colon, a reason), `code` the status name and `httpStatus` the HTTP status
 * (venue-facts: 400 refused/invalid, 401/403 auth, 429 rate limits, 500 Internal).
 */
export class SimRefusal extends PerpbotError {
  readonly httpStatus: number;
  readonly status: string;
  readonly text: string;

  constructor(httpStatus: number, status: string, reason: string, hints: readonly string[] = []) {
    const text = `${status}: ${reason}`;
    super(text, { code: 'SIM_REFUSED', details: { httpStatus, status, reason }, hints });
    this.httpStatus = httpStatus;
    this.status = status;
    this.text = text;
  }
}

export function isSimRefusal(value: unknown): value is SimRefusal {
  return value instanceof SimRefusal;
}

/** 400 InvalidArgument: a malformed or out-of-range request. */
export function invalidArgument(reason: string): SimRefusal {
  return new SimRefusal(400, 'InvalidArgument', reason);
}

/** 400 FailedPrecondition `<action> reverted: <errorName>`, the venue's wording of a contract revert. */
export function revertedWith(action: string, error: string): SimRefusal {
  return new SimRefusal(400, 'FailedPrecondition', `${action} reverted: ${error}`);
}

export function unauthenticated(reason: string): SimRefusal {
  return new SimRefusal(401, 'Unauthenticated', reason);
}
