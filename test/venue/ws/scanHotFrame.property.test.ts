import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrameByParse, decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { scanHotFrame } from '../../../src/venue/ws/scanHotFrame.js';
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
