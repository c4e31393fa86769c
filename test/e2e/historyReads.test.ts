import { firstValueFrom, timeout, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDomain } from '../../src/protocol/domain.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import { collectAll, orderHistoryRecords, tradeHistoryRecords } from '../../src/venue/rest/historyPages.js';
import { readAllOpenOrders } from '../../src/venue/rest/readAllOpenOrders.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { VenueSchemaError } from '../../src/venue/rest/venueSchemaError.js';
import type { FillRecord } from '../../src/venue/schemas/wsFramesPrivate.js';
import { VenueError } from '../../src/venue/venueError.js';
import { VenueWsClient } from '../../src/venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../../src/venue/ws/wsAuthenticatorFromRest.js';
import { actionHash, errorOf, SimRestHarness, type HttpAnswer } from './simRestHarness.js';
import { SimRestTrader } from './simRestTrader.js';

/**
 * The history reads over real HTTP against the simulator, read with the venue client: orders that
 * rest, fill partly, fill fully and get cancelled; GET /v1/orders with statuses and several pages,
 * /v1/orders/by-id, /v1/trade-history equal to what the fills channel delivered, and open orders
 * over three pages through the paged snapshot reader. No blocks are mined (blockMs 0), so the
 * simulator's own liquidity never touches the book: every fill is one this test made.
 */
const WAIT_MS = 10_000;

let h: SimRestHarness;
let rest: RestClient;
let maker: SimRestTrader;
let taker: SimRestTrader;
let ws: VenueWsClient;
let fillsSubscription: Subscription;
const wsFills: FillRecord[] = [];

/** Order ids in placement order. */
const placed: { id: string; tx_hash: string; block_number: number }[] = [];
let partlyFilled: string;
let filled: string;
let cancelled: string;
let resting: string[];
let startedAtNs: bigint;

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function data(answer: HttpAnswer): Record<string, any> {
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json['data'];
}

async function placeBuy(priceTicks: number, sizeSteps: number): Promise<string> {
  const answer = data(await maker.place({ price_ticks: priceTicks, size_steps: sizeSteps, side: 0 }));
  placed.push({ id: answer['order_id'], tx_hash: answer['tx_hash'], block_number: answer['block_number'] });
  return answer['order_id'];
}

beforeAll(async () => {
  h = await SimRestHarness.start({ blockMs: 0 });
  rest = createRestClient({ baseUrl: h.sim.restUrl, timeoutMs: 10_000 });
  maker = await SimRestTrader.create(h);
  taker = await SimRestTrader.create(h);

  const [domain, system] = await Promise.all([rest.eip712Domain(), rest.systemConfig()]);
  const context = createSigningContext(
    parseDomain({
      name: domain.name,
      version: domain.version,
      chain_id: domain.chain_id.toString(),
      verifying_contract: domain.verifying_contract,
    }),
    system.addresses.router,
  );
  ws = new VenueWsClient({
    url: h.sim.wsUrl,
    knownMarketIds: async () => [1, 2, 3, 4],
    authenticator: wsAuthenticatorFromRest({ rest, context, account: maker.address, signer: maker.signer }),
    staleAfterBlocks: 0,
    reconnect: { baseMs: 50, maxMs: 500 },
  });
  fillsSubscription = ws.channel('fills').subscribe((message) => wsFills.push(message.fill));
  // Subscribed after fills on the same connection, with a snapshot: once it is here, fills is live.
  await firstValueFrom(ws.channel('account').pipe(timeout(WAIT_MS)));

  startedAtNs = BigInt(Date.now()) * 1_000_000n;
  partlyFilled = await placeBuy(640_000, 40);
  filled = await placeBuy(641_000, 20);
  cancelled = await placeBuy(630_000, 20);
  resting = [];
  for (let i = 1; i <= 6; i++) resting.push(await placeBuy(620_000 + i, 15));

  // Sells 35: all 20 of `filled` at 64100 first (best bid), then 15 of `partlyFilled` at 64000.
  data(await taker.place({ side: 1, price_ticks: 640_000, size_steps: 35 }));

  const restingId = BigInt(data(await h.get(`/v1/orders/by-id/${cancelled}`))['order']['resting_order_id']);
  const permit = await h.permit(maker.signer, maker.address, actionHash.cancel(1, restingId), maker.pair());
  data(await h.post('/v1/orders/cancel', { market_id: 1, order_id: cancelled, permit }));
  await until(() => wsFills.length >= 2);
});

afterAll(async () => {
  fillsSubscription?.unsubscribe();
  await ws?.close();
  await h?.close();
});

describe('GET /v1/orders', () => {
  it('serves the venue-facts record consistent with the place receipt and the matching', async () => {
    const first = placed[0]!;
    const order = await rest.orderById(partlyFilled);
    expect(order).toMatchObject({
      id: partlyFilled,
      market_id: '1',
      sender: maker.address,
      side: 'BUY',
      type: 'LIMIT',
      time_in_force: 'GTC',
      status: 'ORDER_STATUS_OPEN',
      price: '64000',
      size: '0.0004',
      filled_size: '0.00015',
      avg_price: '64000',
      post_only: false,
      reduce_only: false,
      block_number: first.block_number,
      tx_hash: first.tx_hash,
      fee_bps: 2,
      cancel_requested: false,
    });
    expect(order.created_at).toBeGreaterThanOrEqual(startedAtNs);
    expect(order.created_at).toBeLessThanOrEqual(BigInt(Date.now()) * 1_000_000n);
    expect(await rest.orderById(filled)).toMatchObject({
      status: 'ORDER_STATUS_FILLED',
      filled_size: '0.0002',
      avg_price: '64100',
    });
    expect(await rest.orderById(cancelled)).toMatchObject({ status: 'ORDER_STATUS_CANCELLED', filled_size: '0' });
  });

  it('filters by statuses (comma-separated) and by order ids', async () => {
    const ids = async (statuses: Parameters<RestClient['orderHistory']>[0]['statuses']) =>
      (await rest.orderHistory({ account: maker.address, ...(statuses === undefined ? {} : { statuses }) })).orders.map(
        (o) => o.id,
      );
    expect(await ids(['ORDER_STATUS_OPEN'])).toEqual([...resting].reverse().concat(partlyFilled));
    expect(await ids(['ORDER_STATUS_FILLED'])).toEqual([filled]);
    expect(await ids(['ORDER_STATUS_CANCELLED'])).toEqual([cancelled]);
    expect(await ids(['ORDER_STATUS_FILLED', 'ORDER_STATUS_CANCELLED'])).toEqual([cancelled, filled]);
    const byIds = await rest.orderHistory({
      account: maker.address,
      orderIds: [filled, resting[0]!.slice(2).toUpperCase()],
    });
    expect(byIds.orders.map((o) => o.id)).toEqual([resting[0], filled]);
    const takerOrders = await rest.orderHistory({ account: taker.address });
    expect(takerOrders.orders.map((o) => [o.side, o.status, o.filled_size, o.avg_price, o.fee_bps])).toEqual([
      // (64100 × 20 + 64000 × 15) / 35
      ['SELL', 'ORDER_STATUS_FILLED', '0.00035', '64057.142857142857142857', 5],
    ]);
  });

  it('pages newest first with has_next_page, and the page walker reads every order once', async () => {
    const newestFirst = placed.map((p) => p.id).reverse();
    const pages = [];
    for (let page = 1; page <= 3; page++)
      pages.push(await rest.orderHistory({ account: maker.address, page, limit: 4 }));
    expect(pages.map((p) => [p.page, p.orders.length, p.has_next_page])).toEqual([
      [1, 4, true],
      [2, 4, true],
      [3, 1, false],
    ]);
    expect(pages.flatMap((p) => p.orders.map((o) => o.id))).toEqual(newestFirst);
    const oldestFirst = await rest.orderHistory({ account: maker.address, sortedBy: 'created_at', limit: 2 });
    expect(oldestFirst.orders.map((o) => o.id)).toEqual([partlyFilled, filled]);

    let requests = 0;
    const counting: Pick<RestClient, 'orderHistory'> = {
      orderHistory: (query, options) => {
        requests += 1;
        return rest.orderHistory(query, options);
      },
    };
    const walked = await collectAll(orderHistoryRecords(counting, { account: maker.address }, { pageSize: 4 }));
    expect(walked.map((o) => o.id)).toEqual(newestFirst);
    expect(requests).toBe(3);
  });

  it('answers bad queries with 400 InvalidArgument, never 500', async () => {
    const account = maker.address;
    const ids101 = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(64, '0')).join(',');
    const bad = [
      '/v1/orders',
      '/v1/orders?account=0x1234',
      `/v1/orders?account=${account}&limit=0`,
      `/v1/orders?account=${account}&limit=1001`,
      `/v1/orders?account=${account}&page=0`,
      `/v1/orders?account=${account}&page=abc`,
      `/v1/orders?account=${account}&page=1.5`,
      `/v1/orders?account=${account}&statuses=OPEN`,
      `/v1/orders?account=${account}&sorted_by=price`,
      `/v1/orders?account=${account}&order_ids=${ids101}`,
      `/v1/orders?account=${account}&order_ids=nothex`,
      '/v1/trade-history',
      '/v1/trade-history?account=nope',
      `/v1/trade-history?account=${account}&limit=0`,
      `/v1/trade-history?account=${account}&limit=5000`,
      `/v1/trade-history?account=${account}&page=-1`,
    ];
    for (const path of bad) {
      const error = errorOf(await h.get(path));
      expect({ path, status: error.status, code: error.code }).toEqual({ path, status: 400, code: 'InvalidArgument' });
      expect(error.message).toMatch(/^InvalidArgument: invalid request query: /);
    }
    expect(errorOf(await h.get(`/v1/orders?account=${account}&limit=0`)).message).toMatch(
      /limit: expected an integer 1 to 1000/,
    );
    expect(errorOf(await h.get(`/v1/orders?account=${account}&order_ids=${ids101}`)).message).toMatch(
      /at most 100 order ids, 101 sent/,
    );
    const limit1000 = await h.get(
      `/v1/orders?account=${account}&limit=1000&statuses=ORDER_STATUS_OPEN,ORDER_STATUS_NONE`,
    );
    expect(data(limit1000)['orders']).toHaveLength(7);
  });
});

describe('GET /v1/orders/by-id/{order_id}', () => {
  it('answers 404 NotFound for an unknown id and 400 InvalidArgument for a malformed one', async () => {
    const unknown = `0x${'00'.repeat(7)}ff${'ab'.repeat(16)}`;
    const error = await rest.orderById(unknown).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect(error).toMatchObject({ httpStatus: 404, statusName: 'NotFound' });
    expect(errorOf(await h.get(`/v1/orders/by-id/${unknown}`)).message).toBe(`NotFound: order ${unknown} not found`);
    for (const malformed of ['0x1234', `0x${'zz'.repeat(24)}`, `${'ab'.repeat(25)}`, `0x${'ab'.repeat(32)}`]) {
      expect(errorOf(await h.get(`/v1/orders/by-id/${malformed}`))).toMatchObject({
        status: 400,
        code: 'InvalidArgument',
      });
    }
    // The client refuses a non-hex id before sending.
    await expect(rest.orderById('not-an-id')).rejects.toBeInstanceOf(VenueSchemaError);
  });
});

describe('GET /v1/trade-history', () => {
  it('serves the fills the fills channel delivered, newest first, with the same ids, prices, sizes and fees', async () => {
    const history = await rest.tradeHistory({ account: maker.address });
    expect(history).toMatchObject({ page: 1, has_next_page: false, wallet_address: maker.address });
    const key = (f: FillRecord) => ({
      id: f.id,
      order_id: f.order_id,
      side: f.side,
      price: f.price,
      size: f.size,
      fee: f.fee,
      time: f.time,
      liquidity_indicator: f.liquidity_indicator,
    });
    expect(wsFills).toHaveLength(2);
    expect(history.trades.map(key)).toEqual([...wsFills].reverse().map(key));
    expect(history.trades.map((f) => [f.order_id, f.price, f.size, f.fee])).toEqual([
      [partlyFilled, '64000', '0.00015', '0.00192'],
      [filled, '64100', '0.0002', '0.002564'],
    ]);

    const first = await rest.tradeHistory({ account: maker.address, limit: 1 });
    expect([first.trades.map((f) => f.id), first.has_next_page]).toEqual([[wsFills[1]!.id], true]);
    const takerFills = await collectAll(tradeHistoryRecords(rest, { account: taker.address }, { pageSize: 1 }));
    expect(takerFills.map((f) => [f.liquidity_indicator, f.price, f.fee])).toEqual([
      ['TAKER', '64000', '0.0048'],
      ['TAKER', '64100', '0.00641'],
    ]);
  });

  it('serves an empty history for an account the venue never saw', async () => {
    const stranger = '0x00000000000000000000000000000000000000aa';
    expect(await rest.tradeHistory({ account: stranger })).toMatchObject({ trades: [], has_next_page: false });
    expect(await rest.orderHistory({ account: stranger })).toMatchObject({ orders: [], has_next_page: false });
  });
});

describe('GET /v1/orders/open through the paged snapshot reader', () => {
  it('returns every open order across three pages', async () => {
    let requests = 0;
    const counting: Pick<RestClient, 'openOrders'> = {
      openOrders: (query, options) => {
        requests += 1;
        return rest.openOrders(query, options);
      },
    };
    const snapshot = await readAllOpenOrders(counting, { account: maker.address, marketId: 1 }, { pageSize: 3 });
    expect(snapshot).toMatchObject({ totalOrders: 7, pages: 3 });
    expect(requests).toBe(3);
    expect(snapshot.orders.map((o) => o.order_id)).toEqual([partlyFilled, ...resting]);
  });
});
