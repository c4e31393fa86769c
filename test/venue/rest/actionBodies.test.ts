import { afterEach, describe, expect, it } from 'vitest';
import { checkedBody } from '../../../src/venue/rest/actionBodies.js';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import { VenueSchemaError } from '../../../src/venue/rest/venueSchemaError.js';
import type { CancelAllRequestWire } from '../../../src/venue/schemas/restOrders.js';
import { sendJson, startHttpPeer } from './testHttpPeer.js';

const PERMIT = {
  account: '0x1111111111111111111111111111111111111111',
  signer: '0x2222222222222222222222222222222222222222',
  nonce_anchor: '10',
  nonce_bitmap_index: 1,
  deadline: 1_700_000_060,
  signature: Buffer.alloc(64, 3).toString('base64'),
};
const RECEIPT = { data: { success: true, tx_hash: `0x${'ab'.repeat(32)}`, block_number: '5' } };

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function client() {
  const venue = await startHttpPeer((_req, res) => sendJson(res, 200, RECEIPT));
  closers.push(venue.close);
  return { venue, rest: createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false }) };
}

describe('checked request bodies', () => {
  // Market 0 is refused by the cancel-all schema; the engine never builds it (pre-trade checks):
  // it stands here for "a body its schema would refuse", to show the schema is not asked again.
  const refusedBySchema = { market_id: 0, permit: PERMIT } satisfies CancelAllRequestWire;

  it('are sent as built, without a second parse', async () => {
    const { venue, rest } = await client();
    await rest.cancelAll(checkedBody({ ...refusedBySchema }));
    expect(venue.seen).toHaveLength(1);
    expect(JSON.parse(venue.seen[0]?.body ?? '')).toEqual(refusedBySchema);
  });

  it('while any other body is still checked against its schema before it leaves', async () => {
    const { venue, rest } = await client();
    const error = await rest.cancelAll({ ...refusedBySchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueSchemaError);
    expect((error as VenueSchemaError).issues.map((i) => i.path)).toEqual(['market_id']);
    expect(venue.seen).toHaveLength(0);
  });
});
