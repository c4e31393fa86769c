import { z } from 'zod';
import { isDecimalString, normalizeDecimal } from '../../core/decimal.js';

/** Ends an issue message whose value must not be echoed (it may carry credentials). */
export const VALUE_NOT_SHOWN = '(value not shown)';

/**
 * Field schemas shared by the config sections. Values substituted from the environment are
 * always strings, so numeric and boolean fields also accept their plain text form ("8080",
 * "true"); nothing else is coerced.
 */

function numberFromText(value: unknown): unknown {
  return typeof value === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

function booleanFromText(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/** A safe integer within [min, max]. */
export function integer(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(numberFromText, z.number().int().min(min).max(max));
}

/** A whole number of milliseconds, from 1 to `max`. */
export function millis(max = 86_400_000) {
  return integer(1, max);
}

export function flag() {
  return z.preprocess(booleanFromText, z.boolean());
}

/**
 * A non-negative (or positive) exact decimal, returned in canonical form ("1000.50" -> "1000.5").
 * Unquoted YAML numbers are floats, so only safe integers are accepted unquoted: "0.1" must be
 * written in quotes to stay exact.
 */
export function decimal(options: { positive: boolean }) {
  const bound = options.positive ? 'a positive' : 'a non-negative';
  return z.any().transform((value: unknown, ctx): string => {
    let text: string;
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) {
        ctx.addIssue({
          code: 'custom',
          input: value,
          message: `expected ${bound} decimal in quotes such as "0.5" (unquoted YAML decimals are floats and lose digits)`,
        });
        return z.NEVER;
      }
      text = String(value);
    } else if (typeof value === 'string' && isDecimalString(value.trim())) {
      text = normalizeDecimal(value.trim(), 'decimal');
    } else {
      ctx.addIssue({ code: 'custom', input: value, message: `expected ${bound} decimal string such as "1000.5"` });
      return z.NEVER;
    }
    const negative = text.startsWith('-');
    if (negative || (options.positive && /^0(?:\.0*)?$/.test(text))) {
      ctx.addIssue({ code: 'custom', input: value, message: `expected ${bound} decimal` });
      return z.NEVER;
    }
    return text;
  });
}

/** A URL whose scheme is one of `schemes` (e.g. http/https). Returned as written, without a trailing slash. */
export function urlWithScheme(schemes: readonly string[]) {
  const allowed = schemes.map((s) => `${s}://`).join(' or ');
  return z.string().transform((value, ctx): string => {
    const text = value.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(text);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !schemes.includes(parsed.protocol.replace(/:$/, ''))) {
      ctx.addIssue({ code: 'custom', input: value, message: `expected a ${allowed} URL` });
      return z.NEVER;
    }
    if (parsed.username !== '' || parsed.password !== '') {
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: `expected a URL without user:password credentials ${VALUE_NOT_SHOWN}`,
      });
      return z.NEVER;
    }
    return text.replace(/\/+$/, '');
  });
}

/** A non-empty file path (relative paths are resolved by whoever opens the file, from the working directory). */
export function filePath() {
  return z.string().trim().min(1);
}
