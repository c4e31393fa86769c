import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SIM_ROUTES } from '../../src/sim/rest/routeTable.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import {
  crossMarginBalanceResponseSchema,
  depositResponseSchema,
  positionResponseSchema,
} from '../../src/venue/schemas/restAccount.js';
import { actionReceiptResponseSchema } from '../../src/venue/schemas/restActionReceipt.js';
import {
  bareLoginNonce,
  eip712DomainResponseSchema,
  loginNonceResponseSchema,
  registerSignerResponseSchema,
  revokeSignerResponseSchema,
  sessionKeyStatusResponseSchema,
  tokenPairResponseSchema,
} from '../../src/venue/schemas/restAuth.js';
import {
  canonicalEip712DomainSchema,
  canonicalFundingRateHistorySchema,
  canonicalLoginNonceSchema,
  canonicalMarketsSchema,
  canonicalMarketTradeHistorySchema,
  canonicalNonceStateSchema,
  canonicalOpenOrdersSchema,
  canonicalOrderbookSchema,
  canonicalPortfolioDetailsSchema,
  canonicalPositionDataSchema,
  canonicalPositionsSchema,
  canonicalSessionKeyStatusSchema,
  canonicalTradeHistorySchema,
} from '../../src/venue/schemas/restCanonical.js';
import { errorEnvelopeSchema } from '../../src/venue/schemas/restEnvelope.js';
import {
  orderByIdResponseSchema,
  orderHistoryResponseSchema,
  tradeHistoryResponseSchema,
} from '../../src/venue/schemas/restHistory.js';
import {
  fundingRateHistoryResponseSchema,
  marketTradeHistoryResponseSchema,
  orderbookResponseSchema,
} from '../../src/venue/schemas/restMarketData.js';
import { marketsResponseSchema } from '../../src/venue/schemas/restMarkets.js';
import { openOrdersResponseSchema, placeOrderResponseSchema } from '../../src/venue/schemas/restOrders.js';
import { portfolioDetailsResponseSchema, positionsResponseSchema } from '../../src/venue/schemas/restPortfolio.js';
import { nonceStateResponseSchema, systemConfigResponseSchema } from '../../src/venue/schemas/restSystem.js';
import {
  cancelTpslResponseSchema,
  placeTpslResponseSchema,
  tpslOrdersResponseSchema,
} from '../../src/venue/schemas/restTpsl.js';
import { canonicalTpslOrdersSchema } from '../../src/venue/schemas/restTpslCanonical.js';
import {
  signedCancelAllTpslBody,
  signedCancelTpslBody,
  signedPlaceTpslBody,
} from '../../src/venue/rest/tpslRequests.js';
import { actionHash, newKey, SimRestHarness, type HttpAnswer } from './simRestHarness.js';
import { SimRestTrader } from './simRestTrader.js';
import { fetchAuthNonce, login, loginBody } from './support/viemAuth.js';

/**
 * Every REST route of a running simulator, listed from its route table so that a new route
 * cannot be left out: each is called once with a request that succeeds, and its answer must pass
 * the client's decoder and, for the reads, the canonical shape of venue-wire.md (restCanonical.ts),
 * the very schemas that accept the captured samples.
 */
let h: SimRestHarness;
let trader: SimRestTrader;
let orderId: string;

interface RouteCheck {
  readonly call: () => Promise<HttpAnswer>;
  /** The client's decoder of the whole body. */
  readonly decoder: z.ZodType;
  /** The venue's exact shape of `data` (reads). */
  readonly canonical?: z.ZodType;
}

beforeAll(async () => {
  h = await SimRestHarness.start({ seed: 24 });
  trader = await SimRestTrader.create(h);
  h.sim.controls.advanceBlocks(3);
  // A resting buy far below the mark, and an IOC buy that takes the makers' asks: an open order,
  // a position and public trades for the reads to show.
  const resting = await trader.place({ price_ticks: 400_000 });
  expect(resting.status).toBe(200);
  orderId = String(resting.json['data'].order_id);
  const taken = await trader.place({
    size_steps: 20,
    price_ticks: 715_000,
    post_only: false,
    order_type: 0,
    time_in_force: 3,
  });
  expect(taken.status).toBe(200);
});
afterAll(() => h.close());

/** The TP/SL routes, signed by the trader's session key: place, cancel the placed order, cancel-all, list. */
function tpslChecks(): Record<string, RouteCheck> {
  const a = trader.address;
  const context = h.sim.context.signingContext;
  const deadline = Math.floor(h.sim.context.clock.now() / 1000) + 600;
  let placed = '';
  return {
    'POST /v1/orders/tpsl': {
      call: async () => {
        const body = await signedPlaceTpslBody(context, trader.signer, {
          account: a,
          marketId: 1,
          side: 'SELL',
          size: '0.0002',
          stopType: 'STOP_LOSS',
          stopPrice: '30000',
          stopPriceOption: 'MARK_PRICE',
          deadline,
        });
        const answer = await h.post('/v1/orders/tpsl', body);
        placed = String(answer.json['data']?.order_id);
        return answer;
      },
      decoder: placeTpslResponseSchema,
    },
    'POST /v1/orders/tpsl/cancel': {
      call: async () =>
        h.post(
          '/v1/orders/tpsl/cancel',
          await signedCancelTpslBody(context, trader.signer, { account: a, orderId: placed, deadline }),
        ),
      decoder: cancelTpslResponseSchema,
    },
    'POST /v1/orders/tpsl/cancel-all': {
      call: async () =>
        h.post(
          '/v1/orders/tpsl/cancel-all',
          await signedCancelAllTpslBody(context, trader.signer, { account: a, marketId: 1, deadline }),
        ),
      decoder: cancelTpslResponseSchema,
    },
    'GET /v1/orders/tpsl': {
      call: () => h.get(`/v1/orders/tpsl?account=${a}&stop_type=STOP_TYPE_NONE`),
      decoder: tpslOrdersResponseSchema,
      canonical: canonicalTpslOrdersSchema,
    },
  };
}

function checks(): Record<string, RouteCheck> {
  const a = trader.address;
  const restingId = (): bigint => {
    const record = h.sim.context.exchange.order(orderId);
    return BigInt(record?.resting_order_id ?? '0');
  };
  return {
    ...tpslChecks(),
    'GET /v1/auth/eip712-domain': {
      call: () => h.get('/v1/auth/eip712-domain'),
      decoder: eip712DomainResponseSchema,
      canonical: canonicalEip712DomainSchema,
    },
    'GET /v1/system/config': { call: () => h.get('/v1/system/config'), decoder: systemConfigResponseSchema },
    'GET /v1/nonce-state/:account': {
      call: () => h.get(`/v1/nonce-state/${a}`),
      decoder: nonceStateResponseSchema,
      canonical: canonicalNonceStateSchema,
    },
    'GET /v1/markets': {
      call: () => h.get('/v1/markets'),
      decoder: marketsResponseSchema,
      canonical: canonicalMarketsSchema,
    },
    'GET /v1/orders/open': {
      // Without market_id, as the live venue allows.
      call: () => h.get(`/v1/orders/open?account=${a}`),
      decoder: openOrdersResponseSchema,
      canonical: canonicalOpenOrdersSchema,
    },
    'GET /v1/account/position': {
      call: () => h.get(`/v1/account/position?account=${a}&market_id=1`),
      decoder: positionResponseSchema,
      canonical: canonicalPositionDataSchema,
    },
    'GET /v1/account/cross-margin-balance': {
      call: () => h.get(`/v1/account/cross-margin-balance?account=${a}`),
      decoder: crossMarginBalanceResponseSchema,
    },
    'GET /v1/auth/session-key-status': {
      call: () => h.get(`/v1/auth/session-key-status?account=${a}&signer=${trader.signer.address}`),
      decoder: sessionKeyStatusResponseSchema,
      canonical: canonicalSessionKeyStatusSchema,
    },
    'GET /v1/auth/nonce': {
      // Without ?account=, as the live clients ask.
      call: () => h.get('/v1/auth/nonce'),
      decoder: loginNonceResponseSchema,
      canonical: canonicalLoginNonceSchema,
    },
    'GET /v1/orders': { call: () => h.get(`/v1/orders?account=${a}`), decoder: orderHistoryResponseSchema },
    'GET /v1/orders/by-id/:order_id': {
      call: () => h.get(`/v1/orders/by-id/${orderId}`),
      decoder: orderByIdResponseSchema,
    },
    'GET /v1/trade-history': {
      call: () => h.get(`/v1/trade-history?account=${a}`),
      decoder: tradeHistoryResponseSchema,
      canonical: canonicalTradeHistorySchema,
    },
    'GET /v1/orderbook': {
      call: () => h.get('/v1/orderbook?market_id=1&limit=5'),
      decoder: orderbookResponseSchema,
      canonical: canonicalOrderbookSchema,
    },
    'GET /v1/positions': {
      call: () => h.get(`/v1/positions?account=${a}&page=1&page_size=10`),
      decoder: positionsResponseSchema,
      canonical: canonicalPositionsSchema,
    },
    'GET /v1/portfolio/details': {
      call: () => h.get(`/v1/portfolio/details?account=${a}`),
      decoder: portfolioDetailsResponseSchema,
      canonical: canonicalPortfolioDetailsSchema,
    },
    'GET /v1/markets/id/:id/trade-history': {
      call: () => h.get('/v1/markets/id/1/trade-history?limit=10'),
      decoder: marketTradeHistoryResponseSchema,
      canonical: canonicalMarketTradeHistorySchema,
    },
    'GET /v1/markets/id/:id/funding-rate-history': {
      call: () => h.get('/v1/markets/id/1/funding-rate-history'),
      decoder: fundingRateHistoryResponseSchema,
      canonical: canonicalFundingRateHistorySchema,
    },
    'POST /v1/account/deposit': {
      call: () => h.post('/v1/account/deposit', { account: newKey().address, amount: '1000' }),
      decoder: depositResponseSchema,
    },
    'POST /v1/account/leverage': { call: () => trader.leverage(2, 5), decoder: actionReceiptResponseSchema },
    'POST /v1/account/margin-mode': { call: () => trader.marginMode(3, 1), decoder: actionReceiptResponseSchema },
    'POST /v1/account/isolated-margin': {
      call: () => trader.isolatedMargin(3, 10n ** 18n),
      decoder: actionReceiptResponseSchema,
    },
    'POST /v1/orders/place': { call: () => trader.place({ price_ticks: 300_000 }), decoder: placeOrderResponseSchema },
    'POST /v1/orders/cancel': {
      call: async () =>
        h.post('/v1/orders/cancel', {
          market_id: 1,
          order_id: orderId,
          permit: await h.permit(trader.signer, a, actionHash.cancel(1, restingId()), trader.pair()),
        }),
      decoder: actionReceiptResponseSchema,
    },
    'POST /v1/orders/cancel-all': {
      call: async () =>
        h.post('/v1/orders/cancel-all', {
          market_id: 1,
          permit: await h.permit(trader.signer, a, actionHash.cancelAll(1), trader.pair()),
        }),
      decoder: actionReceiptResponseSchema,
    },
    'POST /v1/auth/register-signer': {
      call: () => h.registerSigner(trader.account, newKey(), 0n, 100),
      decoder: registerSignerResponseSchema,
    },
    'POST /v1/auth/revoke-signer': {
      call: async () => {
        const signer = newKey();
        expect((await h.registerSigner(trader.account, signer, 0n, 101)).status).toBe(200);
        return h.revokeSigner(trader.account, signer.address, 0n, 102);
      },
      decoder: revokeSignerResponseSchema,
    },
    'POST /v1/auth/login': {
      // The nonce sent back bare, as the venue issues it.
      call: async () => {
        const nonce = bareLoginNonce(await fetchAuthNonce(h, trader.address));
        return h.post('/v1/auth/login', await loginBody(h, trader.account, nonce, Math.floor(Date.now() / 1000) + 60));
      },
      decoder: tokenPairResponseSchema,
    },
    'POST /v1/auth/refresh': {
      call: async () => h.post('/v1/auth/refresh', { refresh_token: (await login(h, trader.account)).refresh_token }),
      decoder: tokenPairResponseSchema,
    },
    'POST /v1/auth/approve-single': {
      // A refusal (wrong operator): its error body is what is checked here; approve-single's
      // success is covered with its signature in simRestJwt.test.ts.
      call: () =>
        h.post('/v1/auth/approve-single', {
          account: a,
          operator: a,
          budget: '1',
          allowance_expiry: Math.floor(Date.now() / 1000) + 3600,
          nonce_anchor: '0',
          nonce_bitmap_index: 103,
          signature: `0x${'ab'.repeat(64)}1b`,
        }),
      decoder: errorEnvelopeSchema,
    },
  };
}

describe('every REST route of the simulator speaks the venue wire', () => {
  it('has a check for every route of the route table, and no check for a route it lacks', () => {
    const routes = SIM_ROUTES.map((route) => `${route.method} ${route.pattern}`).sort();
    expect(Object.keys(checks()).sort()).toEqual(routes);
  });

  it('answers each route with a body the client decodes and, for reads, exactly the canonical shape', async () => {
    const table = checks();
    for (const route of SIM_ROUTES) {
      const key = `${route.method} ${route.pattern}`;
      const check = table[key];
      if (check === undefined) throw new Error(`no check for ${key}`);
      const answer = await check.call();
      const decoded = check.decoder.safeParse(answer.json);
      expect({ key, status: answer.status, issues: decoded.error?.issues ?? [] }).toMatchObject({
        key,
        status: check.decoder === errorEnvelopeSchema ? 400 : 200,
        issues: [],
      });
      if (check.canonical !== undefined) {
        const exact = check.canonical.safeParse(answer.json['data']);
        expect({ key, issues: exact.error?.issues ?? [] }).toEqual({ key, issues: [] });
      }
    }
  });

  it('shows the state the matching engine holds: the position, its row, the trades, the book', async () => {
    const position = (await h.get(`/v1/account/position?account=${trader.address}&market_id=1`)).json['data'];
    expect(position.position).toMatchObject({ market_id: '1', side: 0, margin_mode: 0 });
    const rows = (await h.get(`/v1/positions?account=${trader.address}`)).json['data'];
    expect(rows.positions).toEqual([
      expect.objectContaining({ market_id: '1', side: 'BUY', size: position.position.size }),
    ]);
    const trades = (await h.get('/v1/markets/id/1/trade-history')).json['data'].trades;
    expect(trades.length).toBeGreaterThan(0);
    // The synthetic makers requote every block: the book read here and the answer agree when no block
    // moved it while the request was in flight (held the same before and after it).
    for (let attempt = 1; ; attempt++) {
      const before = h.sim.context.exchange.book(1, 3);
      const rest = (await h.get('/v1/orderbook?market_id=1&limit=3')).json['data'];
      const after = h.sim.context.exchange.book(1, 3);
      if (!isDeepStrictEqual(before, after) && attempt < 20) continue;
      expect({ bids: rest.bids, asks: rest.asks }).toEqual({ bids: after.bids, asks: after.asks });
      break;
    }
  });

  it('is read by the REST client’s live-read methods, which the probe walks', async () => {
    const client = createRestClient({ baseUrl: h.sim.restUrl, timeoutMs: 10_000, rateLimit: false });
    const book = await client.orderbook({ market_id: 1, limit: 2 });
    expect(book.market_id).toBe('1');
    expect(book.bids.length).toBeLessThanOrEqual(2);
    const positions = await client.positions({ account: trader.address, page: 1, page_size: 10 });
    expect(positions.positions[0]).toMatchObject({ market_id: '1', side: 'BUY' });
    const portfolio = await client.portfolioDetails(trader.address);
    expect(portfolio.positions[0]).toMatchObject({ market_id: '1', side: 'BUY' });
    expect((await client.marketTradeHistory({ market_id: 1, limit: 5 })).trades.length).toBeGreaterThan(0);
    expect(await client.fundingRateHistory({ market_id: 1 })).toEqual({ records: [] });
    const nonce = await client.loginNonce();
    expect(nonce.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    // A refused query is refused before sending.
    await expect(client.orderbook({ market_id: 1, limit: 251 })).rejects.toThrow(/limit/);
  });
});
