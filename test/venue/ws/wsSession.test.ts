import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { ManualClock } from '../../../src/core/clock.js';
import { WsSession } from '../../../src/venue/ws/wsSession.js';

/** An unmasked server text frame of a short payload, as it goes on the wire. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([0x81, payload.length]), payload]);
}

describe('WsSession hands over the frames of one socket read one at a time', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('what a frame set off (its promises) settles before the next frame of the same read, as a flight replay delivers them', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    server.on('connection', (socket) => {
      // Once the client speaks, three frames in one write: they reach the client in one read.
      socket.once('message', () => {
        const raw = (socket as unknown as { _socket: Socket })._socket;
        raw.write(Buffer.concat(['one', 'two', 'three'].map(textFrame)));
      });
    });
    const seen: string[] = [];
    let all!: () => void;
    const done = new Promise<void>((resolve) => (all = resolve));
    const session = await WsSession.open({
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
      clock: new ManualClock(0),
      maxFramesPerSecond: 10,
      onText: (text) => {
        seen.push(text);
        // A promise chain of a few steps, as an outcome's or an order event's is.
        void Promise.resolve()
          .then(() => undefined)
          .then(() => {
            seen.push(`${text} settled`);
            if (seen.length === 6) all();
          });
      },
    });
    closers.push(async () => session.end('test over'));
    session.send({ method: 'hello' });
    await done;
    expect(seen).toEqual(['one', 'one settled', 'two', 'two settled', 'three', 'three settled']);
  });
});
