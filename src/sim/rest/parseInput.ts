import type { z } from 'zod';
import { invalidArgument } from '../simRejection.js';

/**
 * Validates untrusted input with its wire schema. A failure becomes one readable
 * `InvalidArgument` naming where (body, query, path) and which fields, never a stack trace.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' | 'path'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 4).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '(whole)' : path}: ${issue.message}`;
  });
  const more = result.error.issues.length > 4 ? `; and ${result.error.issues.length - 4} more` : '';
  throw invalidArgument(`invalid request ${where}: ${problems.join('; ')}${more}`);
}
