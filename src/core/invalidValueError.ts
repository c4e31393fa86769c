import { PerpbotError } from './perpbotError.js';

/**
 * A value that is out of range, malformed or off-grid. Names the field, shows the value as text
 * (bigints included) and states what is allowed, so the caller can fix the input.
 */
export class InvalidValueError extends PerpbotError {
  readonly field: string;
  readonly value: string;
  readonly allowed: string;

  constructor(field: string, value: unknown, allowed: string, hint?: string) {
    const shown = showValue(value);
    super(`${field}: invalid value ${shown}; allowed: ${allowed}`, {
      code: 'INVALID_VALUE',
      details: { field, value: shown, allowed },
      hints: hint === undefined ? [] : [hint],
    });
    this.field = field;
    this.value = shown;
    this.allowed = allowed;
  }
}

function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 140 ? `${value.slice(0, 140)}…` : value);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return 'undefined';
  // Functions and symbols have no JSON form; their own text names them.
  if (typeof value === 'function' || typeof value === 'symbol') return value.toString();
  try {
    return JSON.stringify(value, bigintAsText) ?? typeName(value);
  } catch {
    // A cycle: the kind of value is all that can be shown.
    return typeName(value);
  }
}

/** Nested bigints, which JSON cannot hold, shown as their digits. */
function bigintAsText(_key: string, nested: unknown): unknown {
  return typeof nested === 'bigint' ? nested.toString() : nested;
}

function typeName(value: unknown): string {
  return Object.prototype.toString.call(value);
}
