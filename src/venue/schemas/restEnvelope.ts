import { z } from 'zod';
import { GRPC_STATUS_BY_NUMBER } from '../grpcStatus.js';

/**
 * Every successful REST answer wraps its payload as `{data, request_id?}`; errors come as
 * `{error: {code, message}, request_id?}` (venue-facts: code is a gRPC status name).
 */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, request_id: z.string().optional() });
}

/**
 * `error.code` is a gRPC status name or its number (venue-wire.md §1, disputed: both are read);
 * the output is the name, or the number as text when it names no status.
 */
const errorCodeSchema = z.union([
  z.string(),
  z
    .number()
    .int()
    .transform((code) => GRPC_STATUS_BY_NUMBER[code] ?? String(code)),
]);

export const errorEnvelopeSchema = z.object({
  error: z.object({ code: errorCodeSchema, message: z.string() }),
  request_id: z.string().optional(),
});
