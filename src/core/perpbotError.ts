/**
 * The one error base class. Every error the project throws carries a stable `code` a program can
 * switch on, a short human message, structured `details` (the value that was wrong and its
 * context), `hints` that say what to do about it, and the native `cause` when it wraps another.
 * Secrets never go into any of these fields.
 */
export interface PerpbotErrorOptions {
  readonly code: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly hints?: readonly string[];
  readonly cause?: unknown;
}

export class PerpbotError extends Error {
  readonly code: string;
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

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, details: this.details, hints: this.hints };
  }
}

export function isPerpbotError(value: unknown): value is PerpbotError {
  return value instanceof PerpbotError;
}
