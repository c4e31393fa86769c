import type { Clock } from '../../core/clock.js';
import { exponentialBackoff } from '../../core/withRetry.js';
import { PUBLIC_CHANNELS } from '../../venue/schemas/wsFramesFields.js';
import { runReconnectLoop } from '../../venue/ws/reconnectLoop.js';
import { WsSession } from '../../venue/ws/wsSession.js';
import type { RecordingWriter } from './recordingWriter.js';

/** The source of frames from the public feed connection. */
export const PUBLIC_SOURCE = 'public';

/** The channels `perpbot record` subscribes to, each for the recorded markets. */
export const RECORDED_CHANNELS: readonly string[] = PUBLIC_CHANNELS;

export interface RecordPublicFeedsOptions {
  readonly wsUrl: string;
  readonly markets: readonly number[];
  readonly writer: Pick<RecordingWriter, 'frame' | 'connected' | 'gap'>;
  readonly clock: Clock;
  /** Aborting ends the recording (the connection is closed; the writer is the caller's to close). */
  readonly signal: AbortSignal;
  readonly onConnected?: (connection: number) => void;
  readonly onDropped?: (reason: string, retryInMs: number) => void;
  readonly onConnectFailed?: (error: unknown, retryInMs: number) => void;
  readonly backoff?: (attempt: number) => number;
}

/** A session and whether it has carried a frame (a venue that accepts and drops at once backs off). */
interface CountedSession {
  readonly session: WsSession;
  frames: number;
}

/**
 * Records the venue's public channels for `markets` until the signal aborts: one connection, no
 * keys, every text frame written as received. A dropped connection is written as a `gap` record,
 * then reopened with backoff and resubscribed (a `connected` record marks where frames resume).
 */
export async function recordPublicFeeds(options: RecordPublicFeedsOptions): Promise<void> {
  let connections = 0;
  await runReconnectLoop<CountedSession>({
    open: async () => {
      const counted = { frames: 0 } as CountedSession;
      const session = await WsSession.open({
        url: options.wsUrl,
        clock: options.clock,
        maxFramesPerSecond: 20,
        onText: (text) => {
          counted.frames++;
          options.writer.frame(PUBLIC_SOURCE, text);
        },
      });
      return Object.assign(counted, { session });
    },
    live: async (counted) => {
      const { session } = counted;
      connections++;
      options.writer.connected(PUBLIC_SOURCE, connections);
      options.onConnected?.(connections);
      for (const channel of RECORDED_CHANNELS) session.send(subscribeFrame(channel, options.markets));
      const stop = (): void => session.end('recording stopped');
      options.signal.addEventListener('abort', stop, { once: true });
      if (options.signal.aborted) stop();
      const reason = await session.ended;
      options.signal.removeEventListener('abort', stop);
      return { reason, deliveredData: counted.frames > 0 };
    },
    backoff: options.backoff ?? exponentialBackoff({ baseMs: 100, maxMs: 30_000 }),
    clock: options.clock,
    signal: options.signal,
    onConnectFailed: (error, delayMs) => options.onConnectFailed?.(error, delayMs),
    onDropped: (reason, delayMs) => {
      options.writer.gap(PUBLIC_SOURCE, reason);
      options.onDropped?.(reason, delayMs);
    },
  });
}

function subscribeFrame(channel: string, markets: readonly number[]): object {
  return { method: 'subscribe', params: { channel, ...(markets.length > 0 ? { market_ids: [...markets] } : {}) } };
}
