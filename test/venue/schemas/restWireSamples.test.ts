import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fastPlaceOrderBody } from '../../../src/sim/rest/fastOrderBodies.js';
import { parseInput } from '../../../src/sim/rest/parseInput.js';
import { depositRequestSchema } from '../../../src/venue/schemas/restAccount.js';
import {
  loginAcceptSchema,
  placeOrderAcceptSchema,
  registerSignerAcceptSchema,
  revokeSignerAcceptSchema,
} from '../../../src/venue/schemas/restAcceptedBodies.js';
import {
  bareLoginNonce,
  eip712DomainResponseSchema,
  loginNonceResponseSchema,
  loginRequestSchema,
  registerSignerRequestSchema,
  revokeSignerRequestSchema,
  sessionKeyStatusResponseSchema,
} from '../../../src/venue/schemas/restAuth.js';
import {
  canonicalEip712DomainSchema,
  canonicalMarketsSchema,
  canonicalNonceStateSchema,
  canonicalOrderbookSchema,
  canonicalSessionKeyStatusSchema,
} from '../../../src/venue/schemas/restCanonical.js';
import { orderbookResponseSchema } from '../../../src/venue/schemas/restMarketData.js';
import { marketsResponseSchema } from '../../../src/venue/schemas/restMarkets.js';
import { placeOrderRequestSchema } from '../../../src/venue/schemas/restOrders.js';
import { nonceStateResponseSchema } from '../../../src/venue/schemas/restSystem.js';
import { VenueError, type VenueErrorKind } from '../../../src/venue/venueError.js';
import { wireSample, withoutPlaceholders } from '../wireSamples/wireSample.js';

/**
 * Every REST file of the wire samples (venue-wire.md, wire-samples/README.md) through the client's
 * decoders, the canonical shapes the simulator is held to, and (for requests) the client's request
 * schemas and the simulator's body parsers.
 */
function parses(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error?.issues ?? []).toEqual([]);
}

describe('captured REST samples', () => {
  it('GET /v1/markets (rest-markets.fb.json): decoded, and exactly the canonical shape', () => {
    const body = wireSample('rest-markets.fb.json') as { data: unknown };
    const markets = marketsResponseSchema.parse(body).data.markets;
    expect(markets[0]).toMatchObject({ market_id: '1', mark_price: '84533.372074747582246946' });
    expect(markets[0]?.config.step_size).toBe('0.000001');
    expect(markets[0]?.visible).toBeUndefined();
    parses(canonicalMarketsSchema, body.data);
  });

  it('GET /v1/orderbook (rest-orderbook.fb.json): decimal levels, string totals', () => {
    const body = wireSample('rest-orderbook.fb.json') as { data: unknown };
    const book = orderbookResponseSchema.parse(body).data;
    expect(book).toMatchObject({ market_id: '1', total_bids: 55, total_asks: 13 });
    expect(book.bids[0]).toEqual({ price: '84567.8', quantity: '0.118587', order_count: 1 });
    parses(canonicalOrderbookSchema, body.data);
  });
});

describe('the official page’s REST examples (official-doc/)', () => {
  it('lists only files this test or the WebSocket tests cover', () => {
    const files = readdirSync(new URL('../../vectors/wire-samples/official-doc', import.meta.url)).filter(
      (name) => !name.startsWith('doc-ws-'),
    );
    expect(files.sort()).toEqual(
      [
        'doc-auth-nonce-response.json',
        'doc-eip712-domain.json',
        'doc-faucet-request.json',
        'doc-login-request.json',
        'doc-nonce-state.json',
        'doc-place-order-request.json',
        'doc-register-signer-request.json',
        'doc-revoke-signer-request.json',
        'doc-session-key-status.json',
      ].sort(),
    );
  });

  it('answers: domain, nonce state, session-key status, login nonce', () => {
    const domain = wireSample('official-doc/doc-eip712-domain.json') as { data: unknown };
    expect(eip712DomainResponseSchema.parse(domain).data).toMatchObject({ name: 'RISEx', chain_id: 4153n });
    parses(canonicalEip712DomainSchema, domain.data);
    const nonceState = wireSample('official-doc/doc-nonce-state.json') as { data: unknown };
    expect(nonceStateResponseSchema.parse(nonceState).data).toMatchObject({
      nonce_anchor: 0n,
      current_bitmap_index: 0,
    });
    parses(canonicalNonceStateSchema, nonceState.data);
    const status = wireSample('official-doc/doc-session-key-status.json') as { data: unknown };
    expect(sessionKeyStatusResponseSchema.parse(status).data.status).toBe(1);
    parses(canonicalSessionKeyStatusSchema, status.data);
    // Printed top-level on the page; live it is data-wrapped (venue-wire.md §2): both read.
    const printed = withoutPlaceholders(wireSample('official-doc/doc-auth-nonce-response.json'));
    const NONCE = 'a1b2c3'.padEnd(64, '0');
    expect(loginNonceResponseSchema.parse(printed).nonce).toBe(`0x${NONCE}`);
    expect(loginNonceResponseSchema.parse({ data: printed }).nonce).toBe(`0x${NONCE}`);
    expect(bareLoginNonce(loginNonceResponseSchema.parse({ data: printed }).nonce)).toBe(NONCE);
  });

  it('requests pass the client’s request schemas and the simulator’s body parsers alike', () => {
    const pairs: readonly [string, z.ZodType, z.ZodType][] = [
      ['doc-faucet-request.json', depositRequestSchema, depositRequestSchema],
      ['doc-login-request.json', loginRequestSchema, loginAcceptSchema],
      ['doc-place-order-request.json', placeOrderRequestSchema, placeOrderAcceptSchema],
      ['doc-register-signer-request.json', registerSignerRequestSchema, registerSignerAcceptSchema],
      ['doc-revoke-signer-request.json', revokeSignerRequestSchema, revokeSignerAcceptSchema],
    ];
    for (const [file, client, simulator] of pairs) {
      const body = withoutPlaceholders(wireSample(`official-doc/${file}`));
      parses(client, body);
      expect(parseInput(simulator, body, 'body')).toEqual(client.parse(body));
    }
    const place = withoutPlaceholders(wireSample('official-doc/doc-place-order-request.json'));
    expect(fastPlaceOrderBody(place)).toEqual(placeOrderAcceptSchema.parse(place));
  });
});

describe('live error texts (live-error-texts.json) through the client’s classification', () => {
  const expected: Readonly<Record<string, VenueErrorKind>> = {
    'permit_params is required': 'InvalidArgument',
    'permit signature mismatch: expected X, got Y': 'SignerNotAuthorized',
    'rate limited: 1 request per second for update_leverage': 'RateLimited',
    'invalid order_id length: expected 24, got N': 'InvalidArgument',
    'InvalidNonceAnchor(account, given, expected)': 'InvalidNonceAnchor',
    'invalid channel: ticker': 'InvalidArgument',
    'authentication required for <name> channel': 'Unauthenticated',
  };
  const texts = (wireSample('live-error-texts.json') as { texts: { text: string }[] }).texts.map((t) => t.text);

  it('names a kind for every text in the file', () => {
    expect(texts.sort()).toEqual(Object.keys(expected).sort());
  });

  // Only the texts are live; the envelope's code type is disputed (venue-wire.md §1), so each text
  // is classified under a numeric code, a named code and a bare {message} body alike.
  it.each(Object.entries(expected))('%s → %s', (text, kind) => {
    for (const body of [
      { error: { code: 9, message: text } },
      { error: { code: 'Unknown', message: text } },
      { message: text },
    ]) {
      expect(new VenueError({ httpStatus: 400, rawBody: JSON.stringify(body) }).kind).toBe(kind);
    }
  });

  it('maps a numeric error code to its gRPC name', () => {
    const error = new VenueError({ httpStatus: 400, rawBody: JSON.stringify({ error: { code: 3, message: 'bad' } }) });
    expect(error).toMatchObject({ statusName: 'InvalidArgument', kind: 'InvalidArgument' });
    const notFound = new VenueError({ httpStatus: 404, rawBody: JSON.stringify({ message: 'not found' }) });
    expect(notFound.reason).toBe('not found');
  });
});
