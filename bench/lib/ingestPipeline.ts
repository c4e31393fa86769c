import { Observable, share } from 'rxjs';
import { PerpbotError } from '../../src/core/perpbotError.js';
import type { ChannelMessage } from '../../src/venue/schemas/wsFrames.js';
import type { ChannelName } from '../../src/venue/schemas/wsFramesFields.js';
import { ChannelRegistry, type ChannelSink } from '../../src/venue/ws/channelRegistry.js';
import { decodeServerFrame } from '../../src/venue/ws/decodeServerFrame.js';

/**
 * The venue WebSocket client's per-message path without the socket: `decodeServerFrame` (the fast
 * oracle and orderbook decoders), the channel registry's per-subscriber market narrowing, and a
 * shared RxJS Observable per channel, exactly as `VenueWsClient.channel()` builds them. The
 * client's `onText` is private and bound to a live connection; these are the functions it calls.
 */
export interface IngestPipeline {
  /** One raw text frame in; throws if the client would have dropped it as malformed. */
  feed(text: string): void;
  /** Messages that reached a strategy subscriber. */
  readonly delivered: () => number;
}

export function ingestPipeline(): IngestPipeline {
  const registry = new ChannelRegistry();
  let delivered = 0;
  // Something a strategy would read, so the delivered values cannot be optimised away.
  let touched = 0;
  const channel = (name: ChannelName, marketIds?: readonly number[]): Observable<ChannelMessage> =>
    new Observable<ChannelMessage>((subscriber) => {
      const sink: ChannelSink = {
        channel: name,
        marketIds: marketIds === undefined ? undefined : new Set(marketIds),
        next: (m) => subscriber.next(m),
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      };
      registry.add(sink);
      return () => registry.remove(sink);
    }).pipe(share());

  // A market maker on market 1: its oracle feed narrowed to market 1, the books of every market.
  channel('oracle', [1]).subscribe((m) => {
    delivered++;
    if (m.channel === 'oracle') touched += m.prices.get(1)?.markPrice?.length ?? 0;
  });
  channel('orderbook').subscribe((m) => {
    delivered++;
    // Levels convert on first read; a quoting strategy reads the top of each side.
    if (m.channel === 'orderbook')
      touched += m.bids.length + m.asks.length + (m.bids[0]?.price.length ?? 0) + (m.asks[0]?.price.length ?? 0);
  });

  return {
    feed(text) {
      const decoded = decodeServerFrame(text);
      if (decoded.kind !== 'channel') {
        throw new PerpbotError(
          `ws_ingest: the client would drop this frame (${decoded.kind === 'malformed' ? decoded.reason : 'control frame'})`,
          {
            code: 'BENCH_FRAME',
            details: { frame: text.slice(0, 120) },
            hints: ['the captured frames must be oracle or orderbook data frames'],
          },
        );
      }
      registry.deliver(decoded.message);
    },
    delivered: () => delivered + (touched < 0 ? 1 : 0),
  };
}
