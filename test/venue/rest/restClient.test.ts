import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import { SlidingWindowLimiter } from '../../../src/venue/rest/slidingWindowLimiter.js';
import { VenueSchemaError } from '../../../src/venue/rest/venueSchemaError.js';
import type { PlaceOrderRequestWire } from '../../../src/venue/schemas/restOrders.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { hasNoDefiniteAnswer, VenueTransportError } from '../../../src/venue/venueTransportError.js';
import { sendJson, startHttpPeer, type Handler } from './testHttpPeer.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const SIGNER = '0x2222222222222222222222222222222222222222';
const TX = `0x${'ab'.repeat(32)}`;

const MARKETS = {
  markets: [
    {
      market_id: '1',
      mark_price: '65000.5',
      config: { name: 'BTC/USDC', step_size: '0.00001', step_price: '0.1', min_order_size: '0.00015' },
    },
  ],
};

const PERMIT = {
  account: ACCOUNT,
  signer: SIGNER,
  nonce_anchor: '10',
  nonce_bitmap_index: 1,
  deadline: 1_700_000_060,
  signature: Buffer.alloc(65, 3).toString('base64'),
};

const ORDER: PlaceOrderRequestWire = {
  market_id: 1,
  size_steps: 15,
  price_ticks: 650_000,
  side: 0,
  post_only: false,
  reduce_only: false,
  stp_mode: 0,
  order_type: 1,
  time_in_force: 0,
};

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function peer(handler: Handler) {
  const started = await startHttpPeer(handler);
  closers.push(started.close);
  return started;
}

describe('REST client over real HTTP', () => {
  it('reads and parses an endpoint, sending accept and user-agent but no Authorization', async () => {
    const venue = await peer((_req, res) => sendJson(res, 200, { data: MARKETS, request_id: 'r1' }));
    const client = createRestClient({
      baseUrl: `${venue.baseUrl}/`,
      timeoutMs: 2000,
      rateLimit: false,
      userAgent: 'perpbot-test',
    });
    const markets = await client.markets();
    expect(markets.markets[0]?.config.step_size).toBe('0.00001');
    expect(venue.seen[0]?.path).toBe('/v1/markets');
    expect(venue.seen[0]?.headers['user-agent']).toBe('perpbot-test');
    expect(venue.seen[0]?.headers['accept']).toBe('application/json');
    expect(venue.seen[0]?.headers['authorization']).toBeUndefined();
  });

  it('keeps a path prefix of the base URL and builds path and query parameters', async () => {
    const venue = await peer((req, res) => {
      if (req.path === '/api/v1/nonce-state/0x1111111111111111111111111111111111111111') {
        sendJson(res, 200, { data: { nonce_anchor: '77', current_bitmap_index: 4, bitmap: '15' } });
      } else {
        sendJson(res, 200, { data: { orders: [] } });
      }
    });
    const client = createRestClient({ baseUrl: `${venue.baseUrl}/api`, timeoutMs: 2000, rateLimit: false });
    expect((await client.nonceState(ACCOUNT)).nonce_anchor).toBe(77n);
    await client.openOrders({ account: ACCOUNT, market_id: '1', limit: '50' });
    expect(venue.seen[1]?.path).toBe('/api/v1/orders/open');
    expect(Object.fromEntries(venue.seen[1]?.query ?? [])).toEqual({ account: ACCOUNT, market_id: '1', limit: '50' });
  });

  it('accepts both login nonce forms over the wire', async () => {
    let form = 0;
    const venue = await peer((_req, res) =>
      sendJson(res, 200, form++ === 0 ? { nonce: 'ABCDEF' } : { data: { nonce: '0xabcdef' } }),
    );
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    expect(await client.loginNonce(ACCOUNT)).toEqual({ nonce: '0xabcdef' });
    expect(await client.loginNonce(ACCOUNT)).toEqual({ nonce: '0xabcdef' });
    expect(venue.seen[0]?.query.get('account')).toBe(ACCOUNT);
  });

  it('sends the JWT as a Bearer header on the JWT path and none with a permit', async () => {
    const venue = await peer((_req, res) =>
      sendJson(res, 200, { data: { order_id: '0xabc', tx_hash: TX, block_number: 5 } }),
    );
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    const jwtAnswer = await client.placeOrder(ORDER, { bearer: 'header.payload.sig' });
    expect(jwtAnswer.order_id).toBe('0xabc');
    expect(venue.seen[0]?.headers['authorization']).toBe('Bearer header.payload.sig');
    expect(JSON.parse(venue.seen[0]?.body ?? '')).toEqual(ORDER);
    await client.placeOrder({ ...ORDER, permit: PERMIT });
    expect(venue.seen[1]?.headers['authorization']).toBeUndefined();
    expect(JSON.parse(venue.seen[1]?.body ?? '').permit).toEqual(PERMIT);
    expect(venue.seen[1]?.headers['content-type']).toBe('application/json');
  });

  it('refuses to send a trading call with both or neither of permit and JWT', async () => {
    const venue = await peer((_req, res) => sendJson(res, 200, {}));
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    await expect(client.placeOrder({ ...ORDER, permit: PERMIT }, { bearer: 'jwt' })).rejects.toThrow(InvalidValueError);
    await expect(client.cancelAll({ market_id: 1 })).rejects.toThrow(/a permit or a JWT bearer/);
    expect(venue.seen).toHaveLength(0);
  });

  it('refuses a malformed request body before sending it', async () => {
    const venue = await peer((_req, res) => sendJson(res, 200, {}));
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    const error = await client
      .placeOrder({ ...ORDER, price_ticks: 16_777_216, permit: PERMIT })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueSchemaError);
    expect((error as VenueSchemaError).direction).toBe('request');
    expect((error as VenueSchemaError).issues.map((i) => i.path)).toEqual(['price_ticks']);
    await expect(client.nonceState('0x1234')).rejects.toThrow(InvalidValueError);
    await expect(client.position({ account: 'nope', market_id: '1' })).rejects.toThrow(/account/);
    expect(venue.seen).toHaveLength(0);
  });

  it('turns a non-2xx JSON envelope into a parsed VenueError', async () => {
    const venue = await peer((_req, res) =>
      sendJson(res, 400, {
        error: {
          code: 'FailedPrecondition',
          message: `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${SIGNER})`,
        },
        request_id: 'req-9',
      }),
    );
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    const error = await client.placeOrder({ ...ORDER, permit: PERMIT }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    const venueError = error as VenueError;
    expect(venueError.kind).toBe('SignerNotAuthorized');
    expect(venueError.httpStatus).toBe(400);
    expect(venueError.action).toBe('PlaceOrder');
    expect(venueError.endpoint).toBe('POST /v1/orders/place');
    expect(venueError.requestId).toBe('req-9');
    expect(hasNoDefiniteAnswer(venueError)).toBe(false);
  });

  it('turns a plain-text error and a 5xx into VenueErrors; a 5xx is no definite answer', async () => {
    let call = 0;
    const venue = await peer((_req, res) => {
      if (call++ === 0) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)`);
      } else {
        res.writeHead(502);
        res.end('bad gateway');
      }
    });
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    const first = await client.cancelOrder({ market_id: 1, order_id: '0xab', permit: PERMIT }).catch((e: unknown) => e);
    expect((first as VenueError).kind).toBe('AccountNotRegistered');
    const second = await client
      .cancelOrder({ market_id: 1, order_id: '0xab', permit: PERMIT })
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(VenueError);
    expect((second as VenueError).httpStatus).toBe(502);
    expect(hasNoDefiniteAnswer(second)).toBe(true);
  });

  it('names the endpoint and the issue path when a 2xx body fails its schema', async () => {
    let call = 0;
    const venue = await peer((_req, res) => {
      if (call++ === 0) sendJson(res, 200, { data: { markets: [{ ...MARKETS.markets[0], mark_price: 65000.5 }] } });
      else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>maintenance</html>');
      }
    });
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    const bad = await client.markets().catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(VenueSchemaError);
    expect((bad as VenueSchemaError).message).toMatch(
      /^GET \/v1\/markets: response body does not match the schema: data\.markets\.0\.mark_price: /,
    );
    const notJson = await client
      .updateLeverage({ market_id: '1', leverage: '10', permit_params: PERMIT })
      .catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(VenueSchemaError);
    expect((notJson as VenueSchemaError).issues[0]?.path).toBe('');
    expect((notJson as VenueSchemaError).hints[0]).toMatch(/the action executed/);
  });

  it('times out when the venue does not answer', async () => {
    const venue = await peer(() => {
      // Never answers.
    });
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 5000, rateLimit: false });
    // One attempt (deadline 0): a retried read would time out again and again until its deadline.
    const error = await client.systemConfig({ timeoutMs: 100, deadlineMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueTransportError);
    expect((error as VenueTransportError).kind).toBe('Timeout');
    expect((error as VenueTransportError).message).toMatch(/GET \/v1\/system\/config timed out after 100 ms/);
    expect(hasNoDefiniteAnswer(error)).toBe(true);
  });

  it('reports a caller abort after the request reached the venue as Aborted', async () => {
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const venue = await peer(() => arrived());
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 5000, rateLimit: false });
    const controller = new AbortController();
    const pending = client
      .cancelAll({ market_id: 1, permit: PERMIT }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await reached;
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(VenueTransportError);
    expect((error as VenueTransportError).kind).toBe('Aborted');
    expect(hasNoDefiniteAnswer(error)).toBe(true);
  });

  it('leaves no listener on a long-lived caller signal, and never sends when it is already aborted', async () => {
    const venue = await peer((_req, res) => sendJson(res, 200, { data: MARKETS }));
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false });
    const shutdown = new AbortController();
    for (let i = 0; i < 3; i++) await client.markets({ signal: shutdown.signal });
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    shutdown.abort();
    const error = await client.markets({ signal: shutdown.signal }).catch((e: unknown) => e);
    expect((error as VenueTransportError).kind).toBe('Aborted');
    expect((error as VenueTransportError).requestSent).toBe(false);
    expect(venue.seen).toHaveLength(3);
  });

  it('reports a refused connection as ConnectionFailed', async () => {
    const venue = await startHttpPeer(() => undefined);
    await venue.close();
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit: false, readDeadlineMs: 0 });
    const error = await client.eip712Domain().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueTransportError);
    expect((error as VenueTransportError).kind).toBe('ConnectionFailed');
    expect((error as VenueTransportError).message).toMatch(/ECONNREFUSED/);
  });

  it('waits for the rate limit, and an abort while queued never reaches the venue', async () => {
    const venue = await peer((_req, res) => sendJson(res, 200, { data: { balance: '-3.5' } }));
    const clock = new ManualClock(0);
    const rateLimit = new SlidingWindowLimiter(1, 1000, clock);
    const client = createRestClient({ baseUrl: venue.baseUrl, timeoutMs: 2000, rateLimit });
    expect(await client.crossMarginBalance(ACCOUNT)).toEqual({ balance: '-3.5' });
    const controller = new AbortController();
    const queued = client.crossMarginBalance(ACCOUNT, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const aborted = await queued;
    expect(aborted).toBeInstanceOf(VenueTransportError);
    expect((aborted as VenueTransportError).requestSent).toBe(false);
    expect(hasNoDefiniteAnswer(aborted)).toBe(false);
    // The aborted caller keeps its slot (the limiter never rewrites its schedule), so the next
    // request is granted one window after it.
    const second = client.crossMarginBalance(ACCOUNT);
    await clock.advance(1999);
    expect(venue.seen).toHaveLength(1);
    await clock.advance(1);
    expect(await second).toEqual({ balance: '-3.5' });
    expect(venue.seen).toHaveLength(2);
  });
});
