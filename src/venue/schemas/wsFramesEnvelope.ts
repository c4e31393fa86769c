import { z } from 'zod';
import { NANOS_PATTERN, nonNegativeIntSchema } from './wsFramesFields.js';

/**
 * The channel envelope observed on the venue: `{channel, type, market_id?, data,
 * worker_timestamp, block_number?, log_index?, tx_hash?}`. No sequence numbers.
 */
export const frameTypeSchema = z.enum(['snapshot', 'update']);
export type FrameType = z.infer<typeof frameTypeSchema>;

export const envelopeTailShape = {
  worker_timestamp: z.string().regex(NANOS_PATTERN, 'an integer nanosecond string'),
  block_number: nonNegativeIntSchema.optional(),
  log_index: nonNegativeIntSchema.optional(),
  tx_hash: z.string().optional(),
};

/** Decoded envelope metadata, camelCased; absent wire fields stay absent. */
export interface EnvelopeMeta {
  readonly workerTimestamp: bigint;
  readonly blockNumber?: number;
  readonly logIndex?: number;
  readonly txHash?: string;
}

export function envelopeMeta(frame: {
  worker_timestamp: string;
  block_number?: number | undefined;
  log_index?: number | undefined;
  tx_hash?: string | undefined;
}): EnvelopeMeta {
  return {
    workerTimestamp: BigInt(frame.worker_timestamp),
    ...(frame.block_number === undefined ? {} : { blockNumber: frame.block_number }),
    ...(frame.log_index === undefined ? {} : { logIndex: frame.log_index }),
    ...(frame.tx_hash === undefined ? {} : { txHash: frame.tx_hash }),
  };
}
