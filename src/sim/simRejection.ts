import { PerpbotError } from '../core/perpbotError.js';

/**
 * A refusal in the venue's own words: `text` is what goes into `error.message` (a gRPC-style
 * status name, a colon, a reason), `code` the status name and `httpStatus` the HTTP status
 * (venue-facts: 400 rejected/invalid, 401/403 auth, 429 rate limits, 500 Internal).
 */
export class SimRejection extends PerpbotError {
  readonly httpStatus: number;
  readonly status: string;
  readonly text: string;

  constructor(httpStatus: number, status: string, reason: string, hints: readonly string[] = []) {
    const text = `${status}: ${reason}`;
    super(text, { code: 'SIM_REJECTED', details: { httpStatus, status, reason }, hints });
    this.httpStatus = httpStatus;
    this.status = status;
    this.text = text;
  }
}

export function isSimRejection(value: unknown): value is SimRejection {
  return value instanceof SimRejection;
}

/** 400 InvalidArgument: a malformed or out-of-range request. */
export function invalidArgument(reason: string): SimRejection {
  return new SimRejection(400, 'InvalidArgument', reason);
}

/** 400 FailedPrecondition `<action> reverted: <errorName>`, the venue's wording of a contract revert. */
export function revertedWith(action: string, error: string): SimRejection {
  return new SimRejection(400, 'FailedPrecondition', `${action} reverted: ${error}`);
}

export function unauthenticated(reason: string): SimRejection {
  return new SimRejection(401, 'Unauthenticated', reason);
}
