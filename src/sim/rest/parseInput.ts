import { z } from 'zod';
import { invalidArgument } from '../simRefusal.js';
import { valueAtPath, wireValueText } from '../wireValueText.js';

/** Issues named in one refusal; more are counted, not listed. */
const MAX_ISSUES = 4;

/**
 * Validates untrusted input with its wire schema. A failure becomes one readable
 * `InvalidArgument` naming where (body, query, path), which fields, and the value each had,
 * never a stack trace.
 *
 * A schema that throws instead of reporting (a conversion that ran on input its own checks had
 * already refused, e.g. `BigInt("abc")` in a refinement) is a refusal too: the field is found by
 * trying each field alone, so the answer is still a 400 that names it.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'path',
): z.output<S> {
  let result: z.ZodSafeParseResult<z.output<S>>;
  try {
    result = schema.safeParse(input);
  } catch {
    const path = throwingPath(schema, input, []);
    throw invalidArgument(
      `invalid request ${where}: ${pathText(path)}: not a valid value (got ${wireValueText(valueAtPath(input, path), lastKey(path))})`,
    );
  }
  if (result.success) return result.data;
  const issues = result.error.issues;
  const problems = issues.slice(0, MAX_ISSUES).map((issue) => {
    const got = wireValueText(valueAtPath(input, issue.path), lastKey(issue.path));
    return `${pathText(issue.path)}: ${issue.message} (got ${got})`;
  });
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  throw invalidArgument(`invalid request ${where}: ${problems.join('; ')}${more}`);
}

function pathText(path: readonly PropertyKey[]): string {
  const text = path.map(String).join('.');
  return text === '' ? '(whole)' : text;
}

function lastKey(path: readonly PropertyKey[]): string | undefined {
  const last = path[path.length - 1];
  return last === undefined ? undefined : String(last);
}

/** Where inside `input` the schema throws: the deepest object field whose own schema throws alone. */
function throwingPath(schema: z.ZodType, input: unknown, path: PropertyKey[]): PropertyKey[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return input === undefined || input === null ? path : throwingPath(schema.unwrap() as z.ZodType, input, path);
  }
  if (!(schema instanceof z.ZodObject) || typeof input !== 'object' || input === null) return path;
  // A ZodObject's shape is typed loosely (any per field); every field of it is a schema.
  for (const [key, field] of Object.entries<z.ZodType>(schema.shape)) {
    const value = valueAtPath(input, [key]);
    try {
      field.safeParse(value);
    } catch {
      return throwingPath(field, value, [...path, key]);
    }
  }
  return path;
}
