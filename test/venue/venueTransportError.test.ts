import { describe, expect, it } from 'vitest';
import { PerpbotError } from '../../src/core/perpbotError.js';
import { VenueError } from '../../src/venue/venueError.js';
import { hasNoDefiniteAnswer, VenueTransportError } from '../../src/venue/venueTransportError.js';

describe('VenueTransportError', () => {
  it('says which request had no answer and why', () => {
    const timeout = new VenueTransportError({ kind: 'Timeout', endpoint: 'POST /v1/orders/place', timeoutMs: 1500 });
    expect(timeout).toBeInstanceOf(PerpbotError);
    expect(timeout.message).toBe('POST /v1/orders/place timed out after 1500 ms; no definite answer');
    expect(timeout.code).toBe('VENUE_TIMEOUT');
    expect(timeout.hints.join(' ')).toMatch(/may have executed/);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const failed = new VenueTransportError({
      kind: 'ConnectionFailed',
      endpoint: 'GET /v1/markets',
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    expect(failed.message).toBe('GET /v1/markets could not reach the venue (ECONNREFUSED); no definite answer');
    expect(failed.code).toBe('VENUE_CONNECTION_FAILED');
    expect(failed.cause).toBeInstanceOf(TypeError);
  });

  it('tells "no definite answer" apart from a refusal', () => {
    expect(hasNoDefiniteAnswer(new VenueTransportError({ kind: 'Timeout', endpoint: 'x' }))).toBe(true);
    expect(hasNoDefiniteAnswer(new VenueTransportError({ kind: 'Aborted', endpoint: 'x' }))).toBe(true);
    const neverSent = new VenueTransportError({ kind: 'Aborted', endpoint: 'x', requestSent: false });
    expect(hasNoDefiniteAnswer(neverSent)).toBe(false);
    expect(neverSent.message).toBe('x was aborted by the caller before it was sent');
    expect(hasNoDefiniteAnswer(new VenueError({ httpStatus: 500, rawBody: 'Internal: boom' }))).toBe(true);
    expect(hasNoDefiniteAnswer(new VenueError({ httpStatus: 400, rawBody: 'NonceUsed' }))).toBe(false);
    expect(hasNoDefiniteAnswer(new Error('other'))).toBe(false);
  });
});
