import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/startSim.js';
import { orderbookChecksumOfWire } from '../../src/protocol/orderbookChecksum.js';
import { LocalOrderBook } from '../../src/venue/orderbook/localOrderBook.js';
import { CHANNELS, PRIVATE_CHANNELS, PUBLIC_CHANNELS } from '../../src/venue/schemas/wsFramesFields.js';
import {
  canonicalOrderbookFrameSchema,
  canonicalSubscribedAckSchema,
  canonicalSubscribeRefusalSchema,
  canonicalTradesFrameSchema,
} from '../../src/venue/schemas/wsWireCanonical.js';
import { decodeServerFrame } from '../../src/venue/ws/decodeServerFrame.js';
import { wireSample } from '../venue/wireSamples/wireSample.js';
import { SimRestHarness, limitOrder } from './simRestHarness.js';
import { FrameRecorder, isAck, isAuthReply, settle } from './simWsHarness.js';
import { authV2Frame } from './support/viemAuth.js';

/**
 * Every channel of a running simulator, public and private, read as the real venue's wire: each
 * frame the simulator sends is the canonical shape (`wsWireCanonical.ts`, venue-wire.md §3) where
 * one is defined, and every frame goes through the client's own decoder without a failure. The
 * client's local book, fed every orderbook frame, verifies every update's checksum.
 */
let h: SimRestHarness;
let alice: { account: PrivateKeyAccount; signer: PrivateKeyAccount };
let client: FrameRecorder;

beforeAll(async () => {
  h = await SimRestHarness.start({ blockMs: 50 });
  alice = await h.trader();
  client = await FrameRecorder.connect(h.sim.wsUrl);
});

afterAll(async () => {
  client.close();
  await h.close();
});

describe("the simulator's WebSocket speaks the venue's wire", () => {
  it('on every channel: canonical shapes, decoded by the client, every book checksum verified', async () => {
    // The official page's subscribe frame, verbatim, then every other public channel.
    await client.request(wireSample('official-doc/doc-ws-subscribe.json'), isAck('orderbook'));
    for (const channel of PUBLIC_CHANNELS.filter((c) => c !== 'orderbook'))
      expect(await client.request({ method: 'subscribe', params: { channel } }, isAck(channel))).toMatchObject({
        status: 'success',
      });
    // Private channels before authentication: the venue's refusal, an ack with status error.
    for (const channel of PRIVATE_CHANNELS) {
      const refusal = await client.request({ method: 'subscribe', params: { channel } }, isAck(channel));
      expect(canonicalSubscribeRefusalSchema.parse(refusal).message).toBe(
        `authentication required for ${channel} channel`,
      );
    }
    // The server admits 10 client frames per second per connection (venue-facts); eight went out.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await client.request(await authV2Frame(h, alice), isAuthReply))['status']).toBe('success');
    for (const channel of PRIVATE_CHANNELS)
      await client.request(
        { method: 'subscribe', params: { channel } },
        (f) => isAck(channel)(f) && f['status'] === 'success',
      );

    // Alice takes the synthetic makers' asks: trades, a fill, orders, a position, the account and the book move.
    const order = limitOrder({ side: 0, price_ticks: 700_000, size_steps: 20, time_in_force: 3 });
    const placed = await h.place(alice.signer, alice.account.address, order, { anchor: 0n, bit: 1 });
    expect(placed.status).toBe(200);
    const from = client.frames.length;
    await client.next((f) => f['channel'] === 'fills', 0);
    await client.next((f) => f['channel'] === 'trades', 0);
    await client.next((f) => f['channel'] === 'orderbook' && f['type'] === 'update', from);
    await settle(client);

    const seen = new Set<string>();
    const book = new LocalOrderBook(1, orderbookChecksumOfWire);
    let verified = 0;
    for (const frame of client.frames) {
      const decoded = decodeServerFrame(JSON.stringify(frame));
      expect(decoded.kind, JSON.stringify(frame).slice(0, 300)).not.toBe('malformed');
      if (frame['type'] === 'subscribed')
        (frame['status'] === 'success' ? canonicalSubscribedAckSchema : canonicalSubscribeRefusalSchema).parse(frame);
      if (decoded.kind !== 'channel') continue;
      seen.add(decoded.message.channel);
      if (frame['channel'] === 'orderbook') canonicalOrderbookFrameSchema.parse(frame);
      if (frame['channel'] === 'trades') canonicalTradesFrameSchema.parse(frame);
      if (decoded.message.channel === 'orderbook' && decoded.message.marketId === 1) {
        expect(book.apply(decoded.message)).toEqual({ kind: 'applied' });
        if (decoded.message.checksum !== undefined) verified++;
      }
    }
    // funding is acknowledged and silent, as on testnet; every other channel delivered something.
    expect([...seen].sort()).toEqual(CHANNELS.filter((c) => c !== 'funding').sort());
    expect(verified).toBeGreaterThan(0);
  });
});

describe('a simulator started with a wire departure', () => {
  it('orderbook-wei: the book frames are refused at a level price, every other frame still decodes', async () => {
    const sim = await startSim({ port: 0, blockMs: 50, wireDepartures: ['orderbook-wei'] });
    const watcher = await FrameRecorder.connect(sim.wsUrl);
    try {
      for (const channel of ['orderbook', 'oracle', 'trades'])
        await watcher.request({ method: 'subscribe', params: { channel, market_ids: [1] } }, isAck(channel));
      const isBookUpdate = (f: Record<string, unknown>): boolean =>
        f['channel'] === 'orderbook' && f['type'] === 'update';
      const first = await watcher.next(isBookUpdate);
      await watcher.next(isBookUpdate, watcher.frames.indexOf(first) + 1);
      await watcher.next((f) => f['channel'] === 'oracle');
      let refusedBooks = 0;
      for (const frame of watcher.frames) {
        const decoded = decodeServerFrame(JSON.stringify(frame));
        const levels = frame['data'] as { bids?: unknown[]; asks?: unknown[] } | undefined;
        const hasLevels = (levels?.bids?.length ?? 0) + (levels?.asks?.length ?? 0) > 0;
        // A book with no levels (a snapshot before the makers quote) has nothing to depart with.
        if (frame['channel'] === 'orderbook' && frame['type'] !== 'subscribed' && hasLevels) {
          expect(decoded.kind).toBe('malformed');
          if (decoded.kind === 'malformed') {
            expect(decoded.failure.source).toBe('ws:orderbook');
            expect(decoded.failure.field).toMatch(/^data\.(bids|asks)\.\d+\.price$/);
            expect(decoded.failure.expected).toMatch(/decimal string below 1e18/);
            refusedBooks++;
          }
        } else {
          expect(decoded.kind, JSON.stringify(frame).slice(0, 200)).not.toBe('malformed');
        }
      }
      expect(refusedBooks).toBeGreaterThan(1);
    } finally {
      watcher.close();
      await sim.close();
    }
  });
});
