import fc from 'fast-check';
import { firstValueFrom, filter, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { MAX_VENUE_FRAME_BYTES } from '../../../src/venue/ws/maxFrameBytes.js';
import { wireFailureShapeKey } from '../../../src/venue/wireDecodeFailure.js';
import { arbitraryFrameText, mutatedFrameText } from './frameMutations.js';
import { SAMPLE_CHANNEL_FRAMES } from './sampleServerFrames.js';
import { ScriptedVenue, tradeFrame } from './scriptedVenue.js';

/**
 * Property, end to end over a real socket: whatever a venue sends, the client never throws into a
 * subscriber. A malformed frame is counted in `metrics.malformedFrames` and its shape logged once;
 * frames that decode go on being delivered; the connection and every stream stay up. A frame past
 * MAX_VENUE_FRAME_BYTES is refused unread: counted, the connection replaced, the streams go on.
 */

const clock = new ManualClock(0);
let venue: ScriptedVenue;
let client: VenueWsClient;
const warnings: { readonly reason?: unknown }[] = [];
const streamErrors: unknown[] = [];
const subscriptions: Subscription[] = [];

beforeAll(async () => {
  venue = await ScriptedVenue.start();
  client = new VenueWsClient({
    url: venue.url,
    knownMarketIds: async () => [1, 2, 3],
    clock,
    staleAfterBlocks: 0,
    logger: { debug: () => undefined, warn: (o: object) => warnings.push(o) },
  });
  for (const channel of ['trades', 'oracle', 'orderbook'] as const) {
    subscriptions.push(client.channel(channel).subscribe({ error: (error: unknown) => streamErrors.push(error) }));
    await venue.frameWith('subscribe', channel);
  }
});

afterAll(async () => {
  for (const s of subscriptions) s.unsubscribe();
  await client.close();
  await venue.close();
});

/** Frames with a control meaning (an error frame fails its channel, by design) are left out. */
const hostileText = fc
  .oneof(fc.constantFrom(...SAMPLE_CHANNEL_FRAMES).chain(mutatedFrameText), arbitraryFrameText)
  .filter((text) => decodeServerFrame(text).kind !== 'control');

describe('VenueWsClient under hostile venue frames', () => {
  it('counts each malformed frame and logs each shape once, never errors a stream, and keeps delivering', async () => {
    let marker = 0;
    const shapesSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(hostileText, { minLength: 1, maxLength: 6 }), async (texts) => {
        const malformedBefore = client.metrics.malformedFrames;
        const warningsBefore = warnings.length;
        const failures = texts.flatMap((text) => {
          const decoded = decodeServerFrame(text);
          return decoded.kind === 'malformed' ? [decoded.failure] : [];
        });
        const expectedMalformed = failures.length;
        const newShapes = new Set(failures.map(wireFailureShapeKey).filter((shape) => !shapesSeen.has(shape)));
        for (const shape of newShapes) shapesSeen.add(shape);
        marker += 1;
        const id = `marker-${marker}`;
        const delivered = firstValueFrom(client.channel('trades').pipe(filter((m) => m.trades[0]?.id === id)));
        for (const text of texts) venue.push(text);
        // Frames are handled in order: once the marker arrives, every frame before it was.
        venue.push(tradeFrame(1, id));
        await delivered;
        expect(client.metrics.malformedFrames - malformedBefore).toBe(expectedMalformed);
        const logged = warnings.slice(warningsBefore).filter((w) => typeof w.reason === 'string');
        expect(logged).toHaveLength(newShapes.size);
        expect(streamErrors).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a frame larger than it reads, unread: counted once, the connection replaced, the streams go on', async () => {
    const malformedBefore = client.metrics.malformedFrames;
    const reconnectsBefore = client.metrics.reconnects;
    const connections = venue.sockets.length;
    venue.push('a1'.repeat(5 * 1024 * 1024));
    // The reconnect waits out its backoff on the client's (virtual) clock.
    while (venue.sockets.length === connections) await clock.advance(100);
    expect(client.metrics.malformedFrames - malformedBefore).toBe(1);
    expect(client.metrics.reconnects - reconnectsBefore).toBe(1);
    expect(warnings.some((w) => String(w.reason).includes(`larger than ${MAX_VENUE_FRAME_BYTES} bytes`))).toBe(true);
    const id = 'after-oversized';
    const delivered = firstValueFrom(client.channel('trades').pipe(filter((m) => m.trades[0]?.id === id)));
    await venue.nextFrame((f) => f.connection === connections && f.frame.params.channel === 'trades');
    venue.push(tradeFrame(1, id));
    await delivered;
    expect(streamErrors).toEqual([]);
  });
});
