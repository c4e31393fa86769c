import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrameByParse, decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { scanHotFrame } from '../../../src/venue/ws/scanHotFrame.js';
import { selectMarkets } from '../../../src/venue/ws/selectMarkets.js';
import { editedFrameText, extraEntryFrameText, reorderedFrameText, respelledValueFrameText } from './frameTextEdits.js';
import { arbitraryFrameText, mutatedFrameText } from './frameMutations.js';
import { oracleFrame, orderbookFrame, type FrameMode } from './hotFrameArbitraries.js';
import { SAMPLE_CHANNEL_FRAMES } from './sampleServerFrames.js';
import { expectSameDecoding } from './sameDecoding.js';

/**
 * The text scanner against the JSON.parse way it stands in front of. It reads the hot frames in
 * the venue's spelling, and then its message is the one JSON.parse and the fast decoder give
 * (keys, key order, lazy levels); on any other text `decodeServerFrame` answers exactly what the
 * JSON.parse way answers, accepted or refused, reason and all.
 */

const hotFrame = (mode: FrameMode): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(oracleFrame(mode), orderbookFrame(mode));

/** Texts of every sort: plain, respelled, edited, mutated, hostile. */
const anyText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hotFrame('plain').map((frame) => JSON.stringify(frame)), weight: 3 },
  { arbitrary: hotFrame('valid').map((frame) => JSON.stringify(frame)), weight: 2 },
  { arbitrary: hotFrame('mutated').map((frame) => JSON.stringify(frame)), weight: 3 },
  { arbitrary: hotFrame('valid').chain(reorderedFrameText), weight: 2 },
  { arbitrary: hotFrame('plain').chain(extraEntryFrameText), weight: 3 },
  { arbitrary: hotFrame('plain').chain(respelledValueFrameText), weight: 5 },
  { arbitrary: hotFrame('plain').chain((frame) => editedFrameText(JSON.stringify(frame))), weight: 4 },
  { arbitrary: fc.constantFrom(...SAMPLE_CHANNEL_FRAMES).chain(mutatedFrameText), weight: 2 },
  { arbitrary: arbitraryFrameText, weight: 1 },
);

describe('scanHotFrame: the hot frames read from their text', () => {
  it('reads every valid oracle and orderbook frame sent in the plain spelling, as the JSON.parse way decodes it', () => {
    fc.assert(
      fc.property(hotFrame('plain'), (frame) => {
        const text = JSON.stringify(frame);
        expect(scanHotFrame(text), text).toBeDefined();
        const expected = decodeFrameByParse(text);
        expect(expected.kind).toBe('channel');
        expectSameDecoding(decodeServerFrame(text), expected);
      }),
      { numRuns: 600 },
    );
  });

  it('decodeServerFrame answers what the JSON.parse way answers, on any text', () => {
    const seen = { scanned: 0, parsedAccepted: 0, parsedRefused: 0 };
    fc.assert(
      fc.property(anyText, (text) => {
        const expected = decodeFrameByParse(text);
        const scanned = scanHotFrame(text);
        if (scanned !== undefined) seen.scanned++;
        else if (expected.kind === 'malformed') seen.parsedRefused++;
        else seen.parsedAccepted++;
        // What the scanner reads, the JSON.parse way accepts: it never reads a refused frame.
        if (scanned !== undefined) expect(expected.kind, text).toBe('channel');
        expectSameDecoding(decodeServerFrame(text), expected);
      }),
      { numRuns: 1500 },
    );
    // Each way is exercised: frames the scanner reads, and frames it leaves that are accepted and refused.
    expect(seen.scanned).toBeGreaterThan(200);
    expect(seen.parsedAccepted).toBeGreaterThan(100);
    expect(seen.parsedRefused).toBeGreaterThan(200);
  });
});

/** An oracle frame with the markets of its prices that some consumers read: a few of its own keys, perhaps another. */
const oracleFrameAndMarkets: fc.Arbitrary<[string, Set<number>]> = fc
  .oneof(oracleFrame('plain'), oracleFrame('valid'), oracleFrame('mutated'))
  .chain((frame) => {
    const data = frame['data'] as { prices?: unknown } | undefined;
    const prices = typeof data?.prices === 'object' && data.prices !== null ? data.prices : {};
    const keys = Object.keys(prices).map(Number).filter(Number.isInteger);
    return fc.tuple(
      fc.constant(JSON.stringify(frame)),
      fc.tuple(fc.subarray(keys), fc.array(fc.integer({ min: 0, max: 70_000 }), { maxLength: 2 })),
    );
  })
  .map(([text, [own, other]]) => [text, new Set([...own, ...other])]);

describe("decodeServerFrame for the markets some consumer reads (the channel registry's decodedMarkets)", () => {
  it('gives each consumer within those markets what the whole frame gives it, and refuses what the JSON.parse way refuses', () => {
    const seen = { narrowed: 0, refused: 0 };
    fc.assert(
      fc.property(
        fc.oneof(
          { arbitrary: oracleFrameAndMarkets, weight: 4 },
          {
            arbitrary: fc.tuple(anyText, fc.constantFrom(new Set<number>(), new Set([1]), new Set([0, 2]))),
            weight: 1,
          },
        ),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
        ([text, wanted], picks) => {
          const whole = decodeFrameByParse(text);
          const decoded = decodeServerFrame(text, wanted);
          if (whole.kind !== 'channel' || whole.message.channel !== 'oracle') {
            if (whole.kind === 'malformed') seen.refused++;
            expectSameDecoding(decoded, whole);
            return;
          }
          expect(decoded.kind).toBe('channel');
          if (decoded.kind !== 'channel' || decoded.message.channel !== 'oracle') return;
          if (scanHotFrame(text) !== undefined) {
            // Read by the scanner: only the wanted markets' prices were converted.
            for (const id of decoded.message.prices.keys()) expect(wanted.has(id)).toBe(true);
            if (decoded.message.prices.size < whole.message.prices.size) seen.narrowed++;
          }
          // Consumers of all those markets, and of some of them.
          const ids = [...wanted];
          const consumers = [wanted, new Set(ids.length === 0 ? [] : picks.map((i) => ids[i % ids.length]!))];
          for (const markets of consumers) {
            expect(selectMarkets(decoded.message, markets)).toStrictEqual(selectMarkets(whole.message, markets));
          }
        },
      ),
      { numRuns: 1500 },
    );
    expect(seen.narrowed).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });
});
