import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelFrameSchemas, controlFrameSchema } from '../../../src/venue/schemas/wsFrames.js';
import { clientFrameSchema } from '../../../src/venue/schemas/wsFramesClient.js';
import { errorFrameChannel, errorFrameSchema } from '../../../src/venue/schemas/wsFramesControl.js';
import { decodeServerFrame, FAST_DECODERS } from '../../../src/venue/ws/decodeServerFrame.js';
import { arbitraryFrameText, mutatedFrameText } from './frameMutations.js';
import { SAMPLE_CHANNEL_FRAMES, SAMPLE_CONTROL_FRAMES } from './sampleServerFrames.js';

/**
 * Property: no text a socket can deliver makes the client's frame decoding throw. Every frame is
 * classified as channel data, a control frame or malformed (with a reason); the fast decoders and
 * every frame schema answer "no" to a bad frame instead of throwing.
 */

const anyFrameText = fc.oneof(
  { arbitrary: fc.constantFrom(...SAMPLE_CHANNEL_FRAMES, ...SAMPLE_CONTROL_FRAMES).chain(mutatedFrameText), weight: 4 },
  { arbitrary: arbitraryFrameText, weight: 1 },
);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe('decoding hostile server frames', () => {
  it('the samples decode as what they are (so the mutations start from valid frames)', () => {
    for (const frame of SAMPLE_CHANNEL_FRAMES)
      expect(decodeServerFrame(JSON.stringify(frame)).kind, JSON.stringify(frame)).toBe('channel');
    for (const frame of SAMPLE_CONTROL_FRAMES)
      expect(decodeServerFrame(JSON.stringify(frame)).kind, JSON.stringify(frame)).toBe('control');
  });

  it('decodeServerFrame never throws: channel, control, or malformed with a reason', () => {
    fc.assert(
      fc.property(anyFrameText, (text) => {
        const decoded = decodeServerFrame(text);
        expect(['channel', 'control', 'malformed']).toContain(decoded.kind);
        if (decoded.kind === 'malformed') expect(decoded.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 600 },
    );
  });

  it('the fast decoders never throw, on parsed frames and on any JavaScript value', () => {
    // The table decodeServerFrame reads: a decoder added there is held to this too.
    expect([...FAST_DECODERS.keys()].sort()).toEqual([
      'account',
      'fills',
      'oracle',
      'orderbook',
      'orders',
      'positions',
      'trades',
    ]);
    fc.assert(
      fc.property(fc.oneof(anyFrameText.map(parsed), fc.anything()), (value) => {
        for (const [channel, decode] of FAST_DECODERS) {
          const message = decode(value);
          expect(message === undefined || message.channel === channel).toBe(true);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('no venue frame schema throws: every one accepts or refuses', () => {
    const schemas = [...Object.values(channelFrameSchemas), controlFrameSchema, clientFrameSchema, errorFrameSchema];
    fc.assert(
      fc.property(fc.oneof(anyFrameText.map(parsed), fc.anything()), (value) => {
        for (const schema of schemas) expect(typeof schema.safeParse(value).success).toBe('boolean');
        const error = errorFrameSchema.safeParse(value);
        if (error.success) expect(['string', 'undefined']).toContain(typeof errorFrameChannel(error.data));
      }),
      { numRuns: 300 },
    );
  });
});
