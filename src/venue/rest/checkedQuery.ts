import type { z } from 'zod';
import { schemaIssues, VenueSchemaError } from './venueSchemaError.js';

/**
 * Validates query parameters before sending and returns them unchanged, as the caller spelt
 * them: a malformed address or id is refused before it costs a round trip.
 */
export function checkedQuery<T extends Readonly<Record<string, string | number | readonly string[] | undefined>>>(
  endpoint: string,
  schema: z.ZodType,
  query: T,
): T {
  const checked = schema.safeParse(query);
  if (!checked.success)
    throw new VenueSchemaError({ endpoint, direction: 'request', issues: schemaIssues(checked.error) });
  return query;
}
