import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerText } from '../../../src/sim/rest/answerText.js';

/** What the server wrote before the splice: the spread copy, serialised. */
const spread = (body: Record<string, unknown>, id: string): string => JSON.stringify({ ...body, request_id: id });

describe('answerText', () => {
  it('writes the text of the spread envelope for any body and id', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('request_id', 'data', 'error', '__proto__', 'toJSON', '0', '10'));
    const value = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.bigInt().map(String));
    const body = fc.dictionary(key, value, { maxKeys: 6 });
    fc.assert(
      fc.property(body, fc.string(), (b, id) => {
        expect(answerText({ status: 200, body: b }, id)).toBe(spread(b, id));
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps the order, an existing request_id in its place, and an empty body', () => {
    expect(answerText({ status: 200, body: { data: { a: 1 } } }, 'sim-1-2')).toBe(
      '{"data":{"a":1},"request_id":"sim-1-2"}',
    );
    expect(answerText({ status: 200, body: {} }, 'x')).toBe('{"request_id":"x"}');
    expect(answerText({ status: 200, body: { request_id: 'old', z: 1 } }, 'new')).toBe('{"request_id":"new","z":1}');
    expect(answerText({ status: 400, body: { gone: undefined } }, 'q"\\')).toBe(spread({ gone: undefined }, 'q"\\'));
  });

  it('serialises a body with its own toJSON as the spread copy does', () => {
    const body = { data: 1, toJSON: () => ({ replaced: true }) };
    expect(answerText({ status: 200, body }, 'id')).toBe(spread(body, 'id'));
  });
});
