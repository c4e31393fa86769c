import { z } from 'zod';
import {
  envelopeMeta,
  envelopeTailShape,
  frameTypeSchema,
  type EnvelopeMeta,
  type FrameType,
} from './wsFramesEnvelope.js';
import { marketIdSchema } from './wsFramesFields.js';

/**
 * funding channel: the venue acknowledges a subscribe and has sent nothing on testnet
 * (venue-wire.md §3, funding), so its payload is unknown. A frame in the channel envelope is
 * passed on with its `data` as it came; nothing in the bot reads it yet.
 */
export const fundingFrameSchema = z
  .object({
    channel: z.literal('funding'),
    type: frameTypeSchema,
    market_id: marketIdSchema.optional(),
    data: z.unknown(),
    ...envelopeTailShape,
  })
  .transform((frame): FundingMessage => ({
    ...envelopeMeta(frame),
    channel: 'funding',
    type: frame.type,
    ...(frame.market_id === undefined ? {} : { marketId: frame.market_id }),
    data: frame.data,
  }));

export interface FundingMessage extends EnvelopeMeta {
  readonly channel: 'funding';
  readonly type: FrameType;
  readonly marketId?: number;
  readonly data: unknown;
}
