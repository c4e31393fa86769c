import { z } from 'zod';

/**
 * Every successful REST answer wraps its payload as `{data, request_id?}`; errors come as
 * `{error: {code, message}, request_id?}` (venue-facts: code is a gRPC status name).
 */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, request_id: z.string().optional() });
}

/** gRPC status codes by number, for a venue that sends `error.code` as a number. */
const GRPC_CODE_NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
] as const;

/**
 * `error.code` is a gRPC status name or its number (venue-wire.md §1, disputed: both are read);
 * the output is the name, or the number as text when it names no status.
 */
const errorCodeSchema = z.union([
  z.string(),
  z
    .number()
    .int()
    .transform((code) => GRPC_CODE_NAMES[code] ?? String(code)),
]);

export const errorEnvelopeSchema = z.object({
  error: z.object({ code: errorCodeSchema, message: z.string() }),
  request_id: z.string().optional(),
});
