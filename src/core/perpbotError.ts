import type { ErrorCode } from './errorCodes.js';
import { redactValue } from './redactor.js';

export interface PerpbotErrorOptions {
  readonly code: ErrorCode;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly hints?: readonly string[];
  readonly cause?: unknown;
}

/**
 * The one error base class. Every error the project throws carries a stable `code` a program can
 * switch on (one of `ErrorCode`), a short human message, structured `details` (the value that was
 * wrong and its context), `hints` that say what to do about it, and the native `cause` when it
 * wraps another. Secrets never go into any of these fields, and its JSON is redacted all the same.
 */
export class PerpbotError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly hints: readonly string[];

  constructor(message: string, options: PerpbotErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
    this.hints = Object.freeze([...(options.hints ?? [])]);
  }

  /** Message plus hints, for a one-line CLI report. */
  describe(): string {
    return this.hints.length === 0 ? this.message : `${this.message} (${this.hints.join('; ')})`;
  }

  /**
   * The error as an answer carries it (control server, outcomes): name, code, message, details,
   * hints and the cause chain (what a wrapped "venue unreachable" really was), without stacks, and
   * redacted like everything the process writes out.
   */
  toJSON(): Record<string, unknown> {
    return redactValue(errorJson(this, 0)) as Record<string, unknown>;
  }
}

export function isPerpbotError(value: unknown): value is PerpbotError {
  return value instanceof PerpbotError;
}

/** Causes kept below an error; a longer chain (or a cycle) ends in a marker. */
const MAX_CAUSE_DEPTH = 8;

function errorJson(error: PerpbotError, depth: number): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: error.name,
    code: error.code,
    message: error.message,
    details: error.details,
    hints: error.hints,
  };
  if (error.cause !== undefined) json['cause'] = causeJson(error.cause, depth + 1);
  return json;
}

function causeJson(cause: unknown, depth: number): unknown {
  if (depth > MAX_CAUSE_DEPTH) return '[cause chain too long]';
  if (cause instanceof PerpbotError) return errorJson(cause, depth);
  if (!(cause instanceof Error)) return cause;
  // A foreign error: its name, message and the code Node puts on system errors (ECONNRESET).
  const json: Record<string, unknown> = { name: cause.name, message: cause.message };
  const code: unknown = (cause as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') json['code'] = code;
  if (cause.cause !== undefined) json['cause'] = causeJson(cause.cause, depth + 1);
  return json;
}
