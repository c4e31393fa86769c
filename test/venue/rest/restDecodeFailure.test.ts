import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import { VenueSchemaError } from '../../../src/venue/rest/venueSchemaError.js';
import type { WireDecodeFailure } from '../../../src/venue/wireDecodeFailure.js';

/** A fetch that answers every request with `body` (200). */
function answering(body: unknown): typeof fetch {
  return () => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
}

describe('a REST body the decoders refuse', () => {
  it('is reported to the sink with its endpoint, field, expected and received, and still fails the call', async () => {
    const reported: { failure: WireDecodeFailure; raw: unknown }[] = [];
    const body = { data: { nonce_anchor: '3', current_bitmap_index: 'seven', bitmap: '0' } };
    const rest = createRestClient({
      baseUrl: 'http://venue.invalid',
      timeoutMs: 1_000,
      rateLimit: false,
      readDeadlineMs: 0,
      fetch: answering(body),
      onDecodeFailure: (failure, raw) => reported.push({ failure, raw }),
    });
    await expect(rest.nonceState(`0x${'ab'.repeat(20)}`)).rejects.toBeInstanceOf(VenueSchemaError);
    expect(reported).toHaveLength(1);
    expect(reported[0]?.failure).toMatchObject({
      source: `rest:GET /v1/nonce-state/{account}`,
      field: 'data.current_bitmap_index',
      received: 'string "seven"',
    });
    expect(reported[0]?.raw).toEqual(body);
  });

  it('is not reported when the body decodes', async () => {
    const reported: WireDecodeFailure[] = [];
    const rest = createRestClient({
      baseUrl: 'http://venue.invalid',
      timeoutMs: 1_000,
      rateLimit: false,
      fetch: answering({ data: { nonce_anchor: '3', current_bitmap_index: 7, bitmap: '0' } }),
      onDecodeFailure: (failure) => reported.push(failure),
    });
    await rest.nonceState(`0x${'ab'.repeat(20)}`);
    expect(reported).toEqual([]);
  });
});
