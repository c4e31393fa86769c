import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface FrameInjectingProxy {
  readonly wsUrl: string;
  /** Connections the bot opened through the proxy so far. */
  readonly connections: () => number;
  /** Sends `text` as one frame to every connection open now, as if the venue had sent it. */
  inject(text: string): void;
  close(): Promise<void>;
}

/**
 * A WebSocket window in front of the simulator: every frame passes through unchanged both ways,
 * and a test can slip in a frame of its own (one the real venue could send, broken or huge).
 */
export async function frameInjectingProxy(targetWsUrl: string): Promise<FrameInjectingProxy> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const clients = new Set<WebSocket>();
  let opened = 0;
  server.on('connection', (client, req) => {
    opened++;
    clients.add(client);
    const upstream = new WebSocket(new URL(req.url ?? '/', targetWsUrl).toString());
    const early: string[] = [];
    upstream.on('open', () => {
      for (const text of early.splice(0)) upstream.send(text);
    });
    client.on('message', (data) => {
      const text = data.toString();
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else early.push(text);
    });
    upstream.on('message', (data) => {
      if (client.readyState === WebSocket.OPEN) client.send(data.toString());
    });
    const end = (): void => {
      clients.delete(client);
      client.terminate();
      upstream.terminate();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  return {
    wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    connections: () => opened,
    inject: (text) => {
      for (const client of clients) client.send(text);
    },
    close: async () => {
      for (const client of clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
