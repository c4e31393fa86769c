import type { Clock } from '../../core/clock.js';

/** The envelope tail every channel frame carries (venue-facts: no sequence numbers). */
export interface FrameMeta {
  readonly worker_timestamp: string;
  readonly block_number?: number;
  readonly tx_hash?: string;
}

/** `worker_timestamp` is nanoseconds; the simulated clock has millisecond resolution. */
export function frameMeta(
  clock: Clock,
  where: { readonly blockNumber?: number; readonly txHash?: string } = {},
): FrameMeta {
  // Keys set one by one, in this order, not conditional spreads: every published batch makes one.
  const meta: { -readonly [K in keyof FrameMeta]: FrameMeta[K] } = {
    worker_timestamp: (BigInt(clock.now()) * 1_000_000n).toString(),
  };
  if (where.blockNumber !== undefined) meta.block_number = where.blockNumber;
  if (where.txHash !== undefined) meta.tx_hash = where.txHash;
  return meta;
}
