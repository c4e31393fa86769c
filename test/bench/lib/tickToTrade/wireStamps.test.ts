import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBareVenue, type BareVenue } from '../../../../bench/lib/tickToTrade/bareVenue.js';
import { startOracleFeed, type OracleFeedServer } from '../../../../bench/lib/tickToTrade/oracleFeedServer.js';
import { stampWire, type WireStamps } from '../../../../bench/lib/tickToTrade/wireStamps.js';

let feed: OracleFeedServer | undefined;
let venue: BareVenue | undefined;
let stamps: WireStamps | undefined;
let client: WebSocket | undefined;
afterEach(async () => {
  client?.terminate();
  stamps?.close();
  await venue?.close();
  await feed?.close();
});

describe('stampWire', () => {
  it('stamps a frame before the WebSocket library parses it, and a request once its bytes are written', async () => {
    feed = await startOracleFeed();
    venue = await startBareVenue();
    stamps = stampWire({ feedPort: feed.port, venuePort: venue.port });
    const socket = new WebSocket(feed.url);
    client = socket;
    await new Promise((resolve) => socket.once('open', resolve));
    const acked = new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'oracle' } }));
    await acked;
    await feed.subscribed;

    stamps.arm();
    const seen = new Promise<number | undefined>((resolve) => socket.once('message', () => resolve(stamps?.arrivalAt)));
    feed.send('{"channel":"oracle","type":"update"}');
    const arrivalSeenByHandler = await seen;
    expect(arrivalSeenByHandler).toBeTypeOf('number');
    expect(stamps.writeAt).toBeUndefined();

    const beforeFetch = performance.now();
    const answer = await fetch(`${venue.url}/v1/orders/place`, {
      method: 'POST',
      body: '{"market_id":1,"permit":{"signature":"x"}}',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      // 24 bytes, the venue's order id length (venue-wire.md §2 cancel).
      data: { order_id: expect.stringMatching(/^0x[0-9a-f]{48}$/) },
    });
    expect(stamps.writeAt).toBeGreaterThanOrEqual(beforeFetch);
    expect(stamps.writes).toBe(1);
    expect(stamps.chunks).toBe(1);
    expect(stamps.venueConnections).toBe(1);
    expect(venue.signedPlacements()).toBe(1);
  });

  it('ignores sockets to other peers', async () => {
    feed = await startOracleFeed();
    venue = await startBareVenue();
    const other = await startBareVenue();
    try {
      stamps = stampWire({ feedPort: feed.port, venuePort: venue.port });
      stamps.arm();
      await (await fetch(`${other.url}/v1/orders/place`, { method: 'POST', body: '{}' })).text();
      expect(stamps.writeAt).toBeUndefined();
      expect(stamps.venueConnections).toBe(0);
    } finally {
      await other.close();
    }
  });
});
