import { describe, expect, it } from 'vitest';
import {
  orderbookChecksum,
  orderbookChecksumOfWire,
  orderbookChecksumText,
} from '../../../src/protocol/orderbookChecksum.js';
import { LocalOrderBook } from '../../../src/venue/orderbook/localOrderBook.js';
import {
  authV2FrameSchema,
  clientFrameSchema,
  subscribeFrameSchema,
} from '../../../src/venue/schemas/wsFramesClient.js';
import { orderbookFrameSchema } from '../../../src/venue/schemas/wsFramesOrderbook.js';
import { canonicalOrderbookFrameSchema } from '../../../src/venue/schemas/wsWireCanonical.js';
import { decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { fastDecodeOrderbook } from '../../../src/venue/ws/fastDecodeOrderbook.js';
import { wireSample, withoutPlaceholders } from './wireSample.js';

const snapshot = wireSample('ws-orderbook-snapshot.fb.json');

describe('the captured orderbook snapshot (ws-orderbook-snapshot.fb.json)', () => {
  it('is what the canonical wire type says the venue sends', () => {
    expect(canonicalOrderbookFrameSchema.safeParse(snapshot).success).toBe(true);
  });

  it('decodes through decodeServerFrame, and the fast decoder equals the zod schema', () => {
    const decoded = decodeServerFrame(JSON.stringify(snapshot));
    if (decoded.kind !== 'channel' || decoded.message.channel !== 'orderbook')
      throw new Error(`not an orderbook message: ${JSON.stringify(decoded)}`);
    const message = decoded.message;
    expect(message).toMatchObject({
      type: 'snapshot',
      marketId: 1,
      levelCount: 4,
      blockNumber: 19_328_296,
      logIndex: 0,
    });
    expect(message.workerTimestamp).toBe(1_786_934_053_513_837_410n);
    expect('checksum' in message).toBe(false);
    expect(message.bids.map((l) => [l.price, l.quantity, l.orderCount])).toEqual([
      ['63218.5', '1.317053', 1],
      ['63215.2', '0.004744', 1],
    ]);
    expect(message.asks.map((l) => [l.price, l.quantity])).toEqual([
      ['63220', '1.317053'],
      ['63222.6', '0.004744'],
    ]);
    expect(fastDecodeOrderbook(snapshot)).toStrictEqual(orderbookFrameSchema.parse(snapshot));
  });

  it('checksums to 3176633503 over the wei conversions, best bid and best ask interleaved (venue-wire.md §3)', () => {
    const message = orderbookFrameSchema.parse(snapshot);
    expect(orderbookChecksumText(message.bids, message.asks)).toBe(
      '63218500000000000000000:1317053000000000000:63220000000000000000000:1317053000000000000:' +
        '63215200000000000000000:4744000000000000:63222600000000000000000:4744000000000000',
    );
    expect(orderbookChecksumOfWire(message.bids, message.asks)).toBe(3_176_633_503);
    expect(orderbookChecksum(message.bids, message.asks)).toBe(3_176_633_503);
    // The client's local book, given this snapshot then an update carrying that checksum, stays synced.
    const book = new LocalOrderBook(1, orderbookChecksumOfWire);
    book.apply(message);
    const update = orderbookFrameSchema.parse({
      ...snapshot,
      method: 'update',
      type: 'update',
      data: { market_id: 1, bids: [], asks: [] },
      level_count: 0,
      checksum: 3_176_633_503,
    });
    expect(book.apply(update)).toEqual({ kind: 'applied' });
  });

  it("FB's unit vector: bids (2,3),(1,4) and asks (5,6) give 3008464340", () => {
    const bids = [
      { price: '2', quantity: '3' },
      { price: '1', quantity: '4' },
    ];
    expect(orderbookChecksum(bids, [{ price: '5', quantity: '6' }])).toBe(3_008_464_340);
  });

  it('in wei (the old reading) is refused at the first level, naming the field and what was expected', () => {
    const data = snapshot['data'] as { bids: { price: string; quantity: string }[] };
    const wei = {
      ...snapshot,
      data: { ...data, bids: data.bids.map((l) => ({ ...l, price: `${l.price.replace('.', '')}0000000000000000` })) },
    };
    const decoded = decodeServerFrame(JSON.stringify(wei));
    expect(decoded.kind).toBe('malformed');
    if (decoded.kind !== 'malformed') return;
    expect(decoded.failure).toMatchObject({
      source: 'ws:orderbook',
      field: 'data.bids.0.price',
      expected: expect.stringMatching(/decimal string below 1e18/) as unknown,
      received: expect.stringMatching(/^string "632185/) as unknown,
    });
    expect(decoded.reason).toMatch(/data\.bids\.0\.price/);
  });
});

describe("the official page's client frames", () => {
  it('doc-ws-subscribe.json is a subscribe frame the client sends and the simulator reads', () => {
    const frame = wireSample('official-doc/doc-ws-subscribe.json');
    expect(subscribeFrameSchema.parse(frame)).toEqual(frame);
    expect(clientFrameSchema.parse(frame)).toEqual(frame);
  });

  it('doc-ws-auth-v2.json (placeholders filled): no expiration, a bare-hex nonce', () => {
    const frame = withoutPlaceholders(wireSample('official-doc/doc-ws-auth-v2.json'));
    const parsed = authV2FrameSchema.parse(frame);
    expect(parsed.params.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect('expiration' in parsed.params).toBe(false);
    expect(clientFrameSchema.parse(frame)).toEqual(frame);
  });
});
