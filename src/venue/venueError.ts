import { GRPC_STATUS_BY_NUMBER } from './grpcStatus.js';
import { screamingSnake } from '../core/errorCodes.js';
import { PerpbotError } from '../core/perpbotError.js';
import { redactText } from '../core/redactor.js';
import { errorEnvelopeSchema } from './schemas/restEnvelope.js';

/**
 * A definite answer from the venue that refused a request (any non-2xx HTTP status). The venue's
 * error text is parsed here, once, into a `kind` the engine switches on; nothing else in the
 * project scrapes error strings. A 5xx answer is not a definite refusal: every action is an
 * on-chain transaction mined before the venue replies, so it may have executed.
 */
export type VenueErrorKind =
  | 'SignerNotAuthorized'
  | 'InvalidNonceAnchor'
  | 'InvalidNonceIndex'
  | 'NonceUsed'
  | 'AllowanceExpired'
  | 'OpenPositionExists'
  | 'PostOnlyWouldCross'
  | 'AccountNotRegistered'
  | 'MarketOrderTimeInForce'
  | 'PermitExpired'
  | 'RateLimited'
  | 'Unauthenticated'
  | 'InvalidArgument'
  | 'Internal'
  | 'Unknown';

export interface ParsedVenueErrorText {
  statusName?: string;
  kind: VenueErrorKind;
  action?: string;
  args: string[];
  /** The contract error's name when the text carries one (`PostOnlyWouldCross`), known or not. */
  errorName?: string;
}

// 'Cancelled' too: the British spelling some gateways print.
const GRPC_STATUS_NAMES = new Set<string>([...GRPC_STATUS_BY_NUMBER, 'Cancelled']);

function splitArgs(list: string | undefined): string[] {
  if (list === undefined) return [];
  return list
    .split(',')
    .map((arg) => arg.trim())
    .filter((arg) => arg.length > 0);
}

/** Known causes, most specific first; the first pattern that matches decides the kind. */
const CAUSES: readonly { kind: VenueErrorKind; pattern: RegExp; args: (m: RegExpExecArray) => string[] }[] = [
  { kind: 'SignerNotAuthorized', pattern: /SignerNotAuthorized(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  // The spec's symptom of a type-string or width mistake: the recovered signer is not authorised.
  { kind: 'SignerNotAuthorized', pattern: /recovers? (?:to )?(?:the |a )?wrong address/i, args: () => [] },
  // The live venue's text for an account action's permit that recovers to another key (venue-wire.md §4.14).
  {
    kind: 'SignerNotAuthorized',
    pattern: /permit signature mismatch: expected (\S+), got (\S+)/i,
    args: (m) => [m[1] ?? '', m[2] ?? ''].map((arg) => arg.replace(/[.,;)"']+$/, '')),
  },
  { kind: 'InvalidNonceAnchor', pattern: /InvalidNonceAnchor(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  { kind: 'InvalidNonceIndex', pattern: /InvalidNonceIndex(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  { kind: 'NonceUsed', pattern: /NonceUsed(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  { kind: 'AllowanceExpired', pattern: /AllowanceExpired(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  { kind: 'OpenPositionExists', pattern: /OpenPositionExists(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  // The venue's revert for a post-only order that would trade on entry (args: its ticks, the best opposite).
  { kind: 'PostOnlyWouldCross', pattern: /PostOnlyWouldCross(?:\(([^)]*)\))?/, args: (m) => splitArgs(m[1]) },
  {
    kind: 'AccountNotRegistered',
    pattern: /account (0x[0-9a-fA-F]{40}) is not registered/i,
    args: (m) => (m[1] === undefined ? [] : [m[1]]),
  },
  {
    kind: 'MarketOrderTimeInForce',
    pattern: /market orders require FOK or IOC time_in_force, got ([^\s,;]+)/,
    args: (m) => (m[1] === undefined ? [] : [m[1].replace(/[.)"']+$/, '')]),
  },
  {
    kind: 'PermitExpired',
    pattern:
      /(?:PermitExpired|DeadlineExpired|SignatureExpired|ExpiredDeadline|DeadlinePassed)(?:\(([^)]*)\))?|(?:permit|signature)?\s*deadline (?:has )?(?:expired|passed)|permit (?:has )?expired/i,
    args: (m) => splitArgs(m[1]),
  },
  { kind: 'RateLimited', pattern: /rate[ -]?limit/i, args: () => [] },
  // The live venue's texts for malformed requests and for a private channel without auth
  // (live-error-texts.json), so a body without a status name still classifies.
  {
    kind: 'InvalidArgument',
    pattern: /permit_params is required|invalid order_id length|invalid channel:/i,
    args: () => [],
  },
  { kind: 'Unauthenticated', pattern: /authentication required/i, args: () => [] },
];

function statusPrefix(text: string): { statusName?: string; rest: string } {
  const grpc = /^\s*rpc error: code = (\w+) desc = /.exec(text);
  if (grpc?.[1] !== undefined) return { statusName: grpc[1], rest: text.slice(grpc[0].length) };
  const plain = /^\s*(\w+):\s*/.exec(text);
  if (plain?.[1] !== undefined && GRPC_STATUS_NAMES.has(plain[1])) {
    return { statusName: plain[1], rest: text.slice(plain[0].length) };
  }
  return { rest: text };
}

function kindFromStatus(statusName: string | undefined, httpStatus: number | undefined): VenueErrorKind {
  switch (statusName) {
    case 'Unauthenticated':
    case 'PermissionDenied':
      return 'Unauthenticated';
    case 'ResourceExhausted':
      return 'RateLimited';
    case 'InvalidArgument':
      return 'InvalidArgument';
    case 'Internal':
      return 'Internal';
    case undefined:
      // No status name: the HTTP status decides, below.
      break;
  }
  if (httpStatus === 401 || httpStatus === 403) return 'Unauthenticated';
  if (httpStatus === 429) return 'RateLimited';
  if (httpStatus === 500) return 'Internal';
  return 'Unknown';
}

function classify(text: string, fallbackStatus?: string, httpStatus?: number): ParsedVenueErrorText {
  const prefix = statusPrefix(text);
  const statusName = prefix.statusName ?? fallbackStatus;
  // `<Action> reverted: <Error>(<args>)`, or a bare contract error such as `NonceUsed`.
  const revert = /(\w+) reverted:\s*(\w+)(?:\(([^)]*)\))?/.exec(prefix.rest);
  const bare = revert === null ? /^([A-Z]\w+)(?:\(([^)]*)\))?\s*$/.exec(prefix.rest.trim()) : null;
  const parsed: ParsedVenueErrorText = { kind: 'Unknown', args: [] };
  if (statusName !== undefined) parsed.statusName = statusName;
  if (revert?.[1] !== undefined) parsed.action = revert[1];
  const errorName = revert?.[2] ?? bare?.[1];
  if (errorName !== undefined) parsed.errorName = errorName;
  for (const cause of CAUSES) {
    const match = cause.pattern.exec(prefix.rest);
    if (match !== null) {
      parsed.kind = cause.kind;
      parsed.args = cause.args(match);
      return parsed;
    }
  }
  parsed.kind = kindFromStatus(statusName, httpStatus);
  parsed.args = splitArgs(revert?.[3] ?? bare?.[2]);
  return parsed;
}

/**
 * Parses a venue error text such as
 * `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(0xabc…)` into its status name,
 * the reverted action, the known cause and the cause's arguments. Pure; the simulator's tests use
 * it to check the texts they produce.
 */
export function parseVenueErrorText(text: string): ParsedVenueErrorText {
  return classify(text);
}

const HINTS: Readonly<Record<VenueErrorKind, readonly string[]>> = {
  SignerNotAuthorized: [
    'check that permit target is addresses.router first; the address in the message is meaningless',
    'then check that the signed values equal the sent ones, the EIP-712 type strings have no spaces and the integer widths match the struct',
    'also check that the signer is registered and Active for this account (GET /v1/auth/session-key-status)',
  ],
  InvalidNonceAnchor: [
    'sign and send the same anchor, either the current anchor or current + 1; resync with GET /v1/nonce-state/{account}',
  ],
  InvalidNonceIndex: ['the bitmap index is above 207: roll to the next anchor and start at index 0'],
  NonceUsed: [
    'this (anchor, bit) pair was already consumed: allocate a fresh pair; if this was a resend, the first attempt executed',
  ],
  AllowanceExpired: [
    'JWT orders run against an operator-hub allowance: grant one with POST /v1/auth/approve-single, or use the permit path',
  ],
  OpenPositionExists: ['close the position in this market before switching margin mode'],
  PostOnlyWouldCross: [
    'the post-only price reached the best opposite price: price it at least one tick behind the opposite touch, or drop post-only',
  ],
  AccountNotRegistered: [
    'the deposit may not be indexed yet; retry shortly (an account is registered by its first collateral deposit)',
  ],
  MarketOrderTimeInForce: ['market orders need time_in_force FOK (2) or IOC (3)'],
  PermitExpired: [
    'the permit deadline passed before the venue saw it: sign again with a later deadline and check the local clock',
  ],
  RateLimited: ['slow down: REST allows 500 requests per 10 s per IP, leverage updates 1 per second per account'],
  Unauthenticated: ['log in again or refresh the JWT (POST /v1/auth/refresh); check the Authorization header'],
  InvalidArgument: ["the venue refused the request's fields; compare the body with the spec's field table"],
  Internal: [
    'the venue failed; the action may still have executed on-chain, so check state before resending (an account with no on-chain state also answers Internal)',
  ],
  Unknown: [],
};

function extractText(rawBody: string): { text: string; code?: string; requestId?: string } {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { text: rawBody.trim() };
  }
  const envelope = errorEnvelopeSchema.safeParse(json);
  if (envelope.success) {
    const out: { text: string; code?: string; requestId?: string } = {
      text: envelope.data.error.message,
      code: envelope.data.error.code,
    };
    if (envelope.data.request_id !== undefined) out.requestId = envelope.data.request_id;
    return out;
  }
  if (typeof json === 'object' && json !== null) {
    const record = json as Record<string, unknown>;
    if (typeof record['error'] === 'string') return { text: record['error'] };
    if (typeof record['message'] === 'string') return { text: record['message'] };
  }
  return { text: rawBody.trim() };
}

export interface VenueErrorInit {
  readonly httpStatus: number;
  readonly rawBody: string;
  /** e.g. "POST /v1/orders/place"; never the body. */
  readonly endpoint?: string;
  /** The answer's `Retry-After` header as milliseconds (429, 503), when it had a valid one. */
  readonly retryAfterMs?: number;
}

/**
 * An answer the venue gave with an error status: its kind (what the client may do about it), the
 * contract error it names, the request id, and the body, redacted before anything keeps it.
 */
export class VenueError extends PerpbotError {
  readonly kind: VenueErrorKind;
  readonly httpStatus: number;
  readonly statusName: string | undefined;
  readonly action: string | undefined;
  readonly args: readonly string[];
  /** Contract error name (`PostOnlyWouldCross`, `NonceUsed`, ...) when the text names one. */
  readonly errorName: string | undefined;
  readonly rawBody: string;
  readonly endpoint: string | undefined;
  readonly requestId: string | undefined;
  /** The venue's reason text (from the envelope's message, or the plain body). */
  readonly reason: string;
  /** How long the venue asked us to wait (its `Retry-After` header), if it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: VenueErrorInit) {
    const body = extractText(init.rawBody);
    const parsed = classify(body.text, body.code, init.httpStatus);
    // The project's one redactor, before the cut (half a key no longer matches the key): a key,
    // signature or JWT the venue echoes back is kept out, the order ids and hashes it names are not.
    const reason = redactText(body.text);
    const shown = reason.length > 300 ? `${reason.slice(0, 300)}…` : reason;
    const where = init.endpoint ?? 'venue request';
    const hints = [...HINTS[parsed.kind]];
    if (parsed.kind === 'Unknown' && parsed.errorName !== undefined) {
      hints.push(
        `the contract refused the action with ${parsed.errorName}(${parsed.args.join(', ')}); see the venue's text for its meaning`,
      );
    }
    if (init.httpStatus >= 500 && parsed.kind !== 'Internal') {
      hints.push('a 5xx answer is not a definite refusal: the action may have executed; check state before resending');
    }
    super(`${where} failed with HTTP ${init.httpStatus}: ${shown || '(empty body)'}`, {
      code: `VENUE_${screamingSnake(parsed.kind)}`,
      details: {
        endpoint: init.endpoint,
        httpStatus: init.httpStatus,
        statusName: parsed.statusName,
        kind: parsed.kind,
        action: parsed.action,
        errorName: parsed.errorName,
        args: parsed.args,
        requestId: body.requestId,
        ...(init.retryAfterMs === undefined ? {} : { retryAfterMs: init.retryAfterMs }),
      },
      hints,
    });
    this.kind = parsed.kind;
    this.httpStatus = init.httpStatus;
    this.statusName = parsed.statusName;
    this.action = parsed.action;
    this.args = Object.freeze([...parsed.args]);
    this.errorName = parsed.errorName;
    this.rawBody = redactText(init.rawBody);
    this.endpoint = init.endpoint;
    this.requestId = body.requestId;
    this.reason = reason;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** 5xx: the venue gave no definite answer; the on-chain action may have happened. */
  get mayHaveExecuted(): boolean {
    return this.httpStatus >= 500;
  }
}
