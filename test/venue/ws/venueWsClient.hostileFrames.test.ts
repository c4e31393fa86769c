import fc from 'fast-check';
import { firstValueFrom, filter, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { arbitraryFrameText, mutatedFrameText } from './frameMutations.js';
import { SAMPLE_CHANNEL_FRAMES } from './sampleServerFrames.js';
import { ScriptedVenue, tradeFrame } from './scriptedVenue.js';

/**
 * Property, end to end over a real socket: whatever a venue sends, the client never throws into a
 * subscriber. A malformed frame is counted in `metrics.malformedFrames` and logged once; frames
 * that decode go on being delivered; the connection and every stream stay up.
 */

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
    clock: new ManualClock(0),
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
  it('counts and logs each malformed frame, never errors a stream, and keeps delivering', async () => {
    let marker = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(hostileText, { minLength: 1, maxLength: 6 }), async (texts) => {
        const malformedBefore = client.metrics.malformedFrames;
        const warningsBefore = warnings.length;
        const expectedMalformed = texts.filter((text) => decodeServerFrame(text).kind === 'malformed').length;
        marker += 1;
        const id = `marker-${marker}`;
        const delivered = firstValueFrom(client.channel('trades').pipe(filter((m) => m.trades[0]?.id === id)));
        for (const text of texts) venue.push(text);
        // Frames are handled in order: once the marker arrives, every frame before it was.
        venue.push(tradeFrame(1, id));
        await delivered;
        expect(client.metrics.malformedFrames - malformedBefore).toBe(expectedMalformed);
        const logged = warnings.slice(warningsBefore).filter((w) => typeof w.reason === 'string');
        expect(logged).toHaveLength(expectedMalformed);
        expect(streamErrors).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
