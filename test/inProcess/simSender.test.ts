import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { copyAsJson } from '../../src/core/jsonCopy.js';
import { simSender } from '../../src/inProcess/simSender.js';
import { answerText } from '../../src/sim/rest/answerText.js';
import { parseJsonBodyText, type BodyResult } from '../../src/sim/rest/readJsonBody.js';
import type { SimResponse } from '../../src/sim/rest/simRoute.js';
import type { DirectAnswer, DirectRequest } from '../../src/venue/rest/restExchange.js';
import { hostileString } from '../sim/hostileValues.js';

const key = fc.oneof(fc.string(), hostileString, fc.constantFrom('request_id', 'data', 'error', '0', '10', 'toJSON'));
const leaf = fc.oneof(
  fc.jsonValue(),
  hostileString,
  fc.constantFrom(-0, Number.NaN, Infinity, undefined, 1e21),
  fc.constant(() => 1),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
})).value;
const body = fc.dictionary(key, value, { maxKeys: 6 });

/** The sender with a simulator that reads the body with `limit` and answers `response`. */
async function exchange(
  sent: unknown,
  limit: number,
  response: SimResponse,
): Promise<{ readonly read: BodyResult | undefined; readonly answer: DirectAnswer }> {
  let read: BodyResult | undefined;
  const send = simSender({
    clock: systemClock,
    latencyMs: () => 0,
    answer: async (req) => {
      read = await req.readBody(limit);
      return { response, requestId: 'sim-3-7' };
    },
  });
  // What the REST client's direct path hands over: the value as its text would carry it, else that text.
  const request: DirectRequest = {
    method: 'POST',
    path: '/v1/orders/place',
    headers: { 'content-type': 'application/json' },
    body: sent === undefined ? undefined : (copyAsJson(sent) ?? JSON.stringify(sent)),
    signal: undefined,
  };
  const answer = await send(request);
  return { read, answer };
}

/** The simulator's body checks of the text, as over HTTP. */
function readAsText(sent: unknown, limit: number): BodyResult {
  return parseJsonBodyText(JSON.stringify(sent) ?? '', limit);
}

function sameRead(a: BodyResult | undefined, b: BodyResult): boolean {
  if (a === undefined) return false;
  if (a.ok && b.ok) return isDeepStrictEqual(a.value, b.value) && JSON.stringify(a.value) === JSON.stringify(b.value);
  if (!a.ok && !b.ok) return a.error.httpStatus === b.error.httpStatus && a.error.message === b.error.message;
  return false;
}

describe('the in-process sender to the simulator', () => {
  it('reads a body as the simulator reads its text: the same value or the same refusal, byte limit included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, value), fc.integer({ min: 1, max: 400 }), async (sent, limit) => {
        const { read } = await exchange(sent, limit, { status: 200, body: {} });
        expect(sameRead(read, readAsText(sent, limit))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('hands over an answer that is its text: the value it parses to for a 2xx, else the text', async () => {
    const status = fc.constantFrom(200, 201, 204, 299, 400, 404, 429, 500, 503);
    await fc.assert(
      fc.asyncProperty(body, status, async (b, s) => {
        const response: SimResponse = { status: s, body: b };
        const text = answerText(response, 'sim-3-7');
        const { answer } = await exchange({ a: 1 }, 64 * 1024, response);
        expect(answer.status).toBe(s);
        if ('json' in answer) {
          expect(s).toBeGreaterThanOrEqual(200);
          expect(s).toBeLessThanOrEqual(299);
          expect(JSON.stringify(answer.json)).toBe(text);
          expect(isDeepStrictEqual(answer.json, JSON.parse(text))).toBe(true);
        } else expect(answer.text).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the answer's Retry-After and the request's bearer token as over HTTP", async () => {
    let authorization: string | undefined;
    const send = simSender({
      clock: systemClock,
      latencyMs: () => 0,
      answer: (req) => {
        authorization = req.authorization;
        return Promise.resolve({
          response: { status: 429, body: { error: { code: 'ResourceExhausted' } }, headers: { 'Retry-After': '3' } },
          requestId: 'r',
        });
      },
    });
    const answer = await send({
      method: 'GET',
      path: '/v1/markets',
      headers: { Authorization: 'Bearer t' },
      body: undefined,
      signal: undefined,
    });
    expect(authorization).toBe('Bearer t');
    expect(answer).toEqual({
      status: 429,
      text: '{"error":{"code":"ResourceExhausted"},"request_id":"r"}',
      retryAfter: '3',
    });
  });
});
