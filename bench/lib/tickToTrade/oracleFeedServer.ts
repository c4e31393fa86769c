import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SubscribedAck } from '../../../src/venue/schemas/wsFramesControl.js';

/**
 * A WebSocket server in the bench's own process that the bench paces: it acknowledges subscribe
 * frames as the simulator does and sends an oracle frame only when asked, so a frame never waits
 * behind another and the client under test sees each on an idle connection.
 */
export interface OracleFeedServer {
  readonly url: string;
  readonly port: number;
  /** Resolves once a client has subscribed to the oracle channel. */
  readonly subscribed: Promise<void>;
  /** Sends one text frame to the subscribed client. */
  send(text: string): void;
  close(): Promise<void>;
}

export async function startOracleFeed(): Promise<OracleFeedServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  let client: WebSocket | undefined;
  let onSubscribed!: () => void;
  const subscribed = new Promise<void>((resolve) => (onSubscribed = resolve));
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as {
        method?: string;
        params?: { channel?: string; market_ids?: number[] };
      };
      if (frame.method !== 'subscribe' || frame.params?.channel === undefined) return;
      socket.send(JSON.stringify(ackOf(frame.params.channel, frame.params.market_ids ?? [])));
      if (frame.params.channel === 'oracle') {
        client = socket;
        onSubscribed();
      }
    });
  });
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    subscribed,
    send(text) {
      if (client === undefined) throw new Error('oracle feed: no client has subscribed yet');
      client.send(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of server.clients) socket.terminate();
        server.close(() => resolve());
      }),
  };
}

/** The simulator's ack, applying exactly the filter asked for (an empty list: all markets). */
function ackOf(channel: string, marketIds: readonly number[]): SubscribedAck {
  const what = marketIds.length === 0 ? 'all markets' : `${marketIds.length} market(s)`;
  return {
    type: 'subscribed',
    method: 'subscribe',
    status: 'success',
    message: `subscribed to ${channel} for ${what}`,
    channel,
    data: { market_ids: [...marketIds] },
  };
}
