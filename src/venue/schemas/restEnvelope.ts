import { z } from 'zod';

/**
 * Every successful REST answer wraps its payload as `{data, request_id?}`; errors come as
 * `{error: {code, message}, request_id?}` (venue-facts: code is a gRPC status name).
 */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, request_id: z.string().optional() });
}

export const errorEnvelopeSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  request_id: z.string().optional(),
});
