import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { systemClock } from '../../../src/core/clock.js';
import { recordPublicFeeds } from '../../../src/runtime/recording/recordPublicFeeds.js';
import { OVERSIZED_FRAME_REASON } from '../../../src/venue/ws/wsSession.js';

/** What the writer was asked to write, in order. */
function fakeWriter(): {
  lines: string[];
  frame: (s: string, r: string) => void;
  connected: (s: string, n: number) => void;
  gap: (s: string, r: string) => void;
} {
  const lines: string[] = [];
  return {
    lines,
    frame: (src, raw) => lines.push(`frame ${src} ${raw}`),
    connected: (src, n) => lines.push(`connected ${src} ${n}`),
    gap: (src, reason) => lines.push(`gap ${src} ${reason}`),
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('recordPublicFeeds', () => {
  let server: WebSocketServer;
  let url: string;
  const sockets: WebSocket[] = [];
  const received: string[] = [];

  beforeEach(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('connection', (socket) => {
      sockets.push(socket);
      socket.on('message', (data: Buffer) => {
        received.push(data.toString());
        socket.send(`{"echo":${data.toString()}}`);
      });
    });
  });
  afterEach(async () => {
    for (const s of sockets) s.terminate();
    sockets.length = 0;
    received.length = 0;
    await new Promise((r) => server.close(r));
  });

  it('subscribes to every public channel for the markets, writes frames as received, and records a drop as a gap', async () => {
    const writer = fakeWriter();
    const stop = new AbortController();
    const running = recordPublicFeeds({
      wsUrl: url,
      markets: [1, 2],
      writer,
      clock: systemClock,
      signal: stop.signal,
      backoff: () => 5,
    });
    await until(() => received.length === 4);
    expect(received.map((r) => JSON.parse(r) as unknown)).toEqual(
      ['orderbook', 'oracle', 'trades', 'funding'].map((channel) => ({
        method: 'subscribe',
        params: { channel, market_ids: [1, 2] },
      })),
    );
    sockets[0]?.send('a frame, not even JSON');
    await until(() => writer.lines.includes('frame public a frame, not even JSON'));
    sockets[0]?.close(4000, 'maintenance');
    await until(() => received.length === 8);
    stop.abort();
    await running;
    expect(writer.lines[0]).toBe('connected public 1');
    const gap = writer.lines.findIndex((l) => l.startsWith('gap public'));
    expect(writer.lines[gap]).toBe('gap public closed by server (code 4000: maintenance)');
    expect(writer.lines[gap + 1]).toBe('connected public 2');
    // Stopping is not a gap.
    expect(writer.lines.filter((l) => l.startsWith('gap'))).toHaveLength(1);
  });

  it('refuses a frame larger than MAX_VENUE_FRAME_BYTES unread: a gap saying so, then it records on', async () => {
    const writer = fakeWriter();
    const stop = new AbortController();
    const running = recordPublicFeeds({
      wsUrl: url,
      markets: [1],
      writer,
      clock: systemClock,
      signal: stop.signal,
      backoff: () => 5,
    });
    await until(() => received.length === 4);
    sockets[0]?.send('x9'.repeat(5 * 1024 * 1024));
    await until(() => received.length === 8);
    sockets[1]?.send('{"after":true}');
    await until(() => writer.lines.includes('frame public {"after":true}'));
    stop.abort();
    await running;
    expect(writer.lines).toContain(`gap public ${OVERSIZED_FRAME_REASON}`);
    expect(writer.lines.every((line) => line.length < 1000)).toBe(true);
  });
});
