import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody, parseJsonBodyText } from '../../../src/sim/rest/readJsonBody.js';

describe('parseJsonBodyText', () => {
  it('answers as parseJsonBody does for the same text sent as UTF-8 bytes', () => {
    const piece = fc.oneof(
      fc.json(),
      fc.constantFrom('\uFEFF', '\uD800', '\uDC00', '😀', 'é', ' ', '{', '}', '"', '{"a":"\uD83D"}', '{"€":1}'),
    );
    const text = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 200 }), (t, limit) => {
        expect(parseJsonBodyText(t, limit)).toEqual(parseJsonBody(Buffer.from(t, 'utf8'), limit));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads an object, and refuses by the UTF-8 size, the byte order mark dropped as decoding drops it', () => {
    expect(parseJsonBodyText('{"a":1}', 100)).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonBodyText('\uFEFF{"a":1}', 100)).toEqual({ ok: true, value: { a: 1 } });
    // Four characters, eight UTF-8 bytes.
    expect(parseJsonBodyText('éééé', 5)).toMatchObject({ ok: false, error: { httpStatus: 413 } });
    expect(parseJsonBodyText('[1]', 100)).toMatchObject({ ok: false, error: { httpStatus: 400 } });
  });
});
