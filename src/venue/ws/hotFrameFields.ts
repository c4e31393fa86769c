import type { FrameType } from '../schemas/wsFramesEnvelope.js';
import type { OrderbookLevel } from '../schemas/wsFramesOrderbook.js';
import type { OraclePrice } from '../schemas/wsFramesOracle.js';

/**
 * What `scanHotFrame` has read of one frame, field by field; undefined = not in the text (so far).
 * One record for both channels (their envelopes are one shape), built with every field in place so
 * that every frame's record has the same hidden class.
 */
export class HotFrameFields {
  /**
   * @param oracleMarkets the markets whose oracle prices anyone reads (undefined: all). Another
   *   market's prices are checked as strictly, and left out of `prices`.
   */
  constructor(readonly oracleMarkets: ReadonlySet<number> | undefined = undefined) {}

  channel: 'orderbook' | 'oracle' | undefined = undefined;
  type: FrameType | undefined = undefined;
  /** `method` (the venue repeats the type there): read to be skipped, remembered to refuse a repeat. */
  method: string | undefined = undefined;
  /** The envelope's `market_id`: a market id, or null (the oracle's). */
  marketId: number | null | undefined = undefined;
  levelCount: number | undefined = undefined;
  checksum: number | undefined = undefined;
  blockNumber: number | undefined = undefined;
  logIndex: number | undefined = undefined;
  txHash: string | undefined = undefined;
  /** The nanosecond digits, checked; BigInt is taken once the frame is accepted. */
  workerTimestamp: string | undefined = undefined;
  /** Whether `data` has been read (each of its parts below may still be absent). */
  data = false;
  dataMarketId: number | undefined = undefined;
  dataChecksum: number | undefined = undefined;
  bids: OrderbookLevel[] | undefined = undefined;
  asks: OrderbookLevel[] | undefined = undefined;
  prices: Map<number, OraclePrice> | undefined = undefined;
  timestamp: number | undefined = undefined;
}
