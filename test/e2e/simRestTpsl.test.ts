import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { ManualClock } from '../../src/core/clock.js';
import { isPerpbotError } from '../../src/core/perpbotError.js';
import { approveOperator } from '../../src/engine/account/approveOperator.js';
import { tpslVenueClient } from '../../src/engine/protection/tpslVenueClient.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { TpslClient } from '../../src/venue/rest/tpslClient.js';
import type { TpslOrderRecord } from '../../src/venue/schemas/restTpsl.js';
import { canonicalTpslOrdersSchema } from '../../src/venue/schemas/restTpslCanonical.js';
import { readVenueSigning } from '../../src/venue/venueInfo.js';
import { VenueError } from '../../src/venue/venueError.js';
import type { SigningContext } from '../../src/protocol/signingContext.js';
import { SimRestHarness } from './simRestHarness.js';
import { SimRestTrader } from './simRestTrader.js';
import { FrameRecorder, isAck, isAuthReply } from './simWsHarness.js';
import { authV2Frame } from './support/viemAuth.js';

/**
 * The simulator's TP/SL orders over real HTTP and WebSocket (venue-tpsl.md), on virtual time:
 * blocks are mined by the test and the clock moves only when told, so the trigger and the lag are
 * exact. Orders are opened with viem-signed permits (the harness); the TP/SL orders go through
 * perpbot's own client (`TpslClient`) and the OperatorHub budget through `approveOperator`, the
 * one implementation of approve-single.
 */
const LAG_MS = 500;
const clock = new ManualClock();
let h: SimRestHarness;
let rest: RestClient;
let context: SigningContext;
let operatorHub: Hex;

beforeAll(async () => {
  h = await SimRestHarness.start({ blockMs: 0, clock, tpslLagMs: LAG_MS, admin: true });
  rest = createRestClient({ baseUrl: h.sim.restUrl, timeoutMs: 10_000, rateLimit: false });
  const signing = await readVenueSigning(rest);
  context = signing.context;
  operatorHub = signing.operatorHub as Hex;
  h.sim.controls.advanceBlocks(3);
});
afterAll(() => h.close());

/** A trader with a long of 0.001 BTC (100 steps), opened by a market IOC buy into the makers' asks. */
async function longTrader(): Promise<{ trader: SimRestTrader; tpsl: TpslClient }> {
  const trader = await SimRestTrader.create(h);
  const bought = await trader.place({ size_steps: 100, price_ticks: 16_000_000, order_type: 0, time_in_force: 3 });
  expect(bought.status, JSON.stringify(bought.json)).toBe(200);
  expect((await trader.position()).size).toBe('0.001');
  const tpsl = new TpslClient({ rest, context, signer: trader.signer, account: trader.address, clock });
  return { trader, tpsl };
}

/** The OperatorHub budget, granted as setup grants it (PermitSingle by the account key). */
function grant(trader: SimRestTrader, budget: string, validForSeconds = 3600) {
  return approveOperator({
    rest,
    context,
    account: trader.account,
    operator: operatorHub,
    budget,
    validForSeconds,
    clock,
  });
}

async function orderOf(tpsl: TpslClient, orderId: string): Promise<TpslOrderRecord> {
  const all = await tpsl.listAll();
  const found = all.orders.find((o) => o.order_id === orderId);
  if (found === undefined)
    throw new Error(`${orderId} not listed: ${JSON.stringify(all.orders.map((o) => o.order_id))}`);
  return found;
}

async function markTo(price: string): Promise<void> {
  h.sim.controls.setMark(1, price);
  h.sim.controls.advanceBlocks(1);
}

const STOP = { marketId: 1, side: 'SELL', size: '0.001', stopPriceOption: 'MARK_PRICE' } as const;

/** A flat position reads as "" (venue-wire.md §1). */
const FLAT = '';

describe('TP/SL orders on the simulator', () => {
  it('a stop-loss fires on the mark, executes after the lag as a reduce-only order of the account, seen everywhere an order is', async () => {
    const { trader, tpsl } = await longTrader();
    await grant(trader, '10000');
    const fills = await FrameRecorder.connect(h.sim.wsUrl);
    expect((await fills.request(await authV2Frame(h, trader), isAuthReply))['status']).toBe('success');
    await fills.request({ method: 'subscribe', params: { channel: 'fills' } }, isAck('fills'));

    const sl = await tpsl.place({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '58500' });
    const tp = await tpsl.place({ ...STOP, stopType: 'TAKE_PROFIT', stopPrice: '71500' });
    expect(await orderOf(tpsl, sl.order_id)).toMatchObject({
      status: 'TPSL_ORDER_STATUS_ACCEPTED',
      stop_type: 'STOP_LOSS',
      order_type: 'MARKET',
      tif: 'IOC',
      stop_price: '58500',
      triggered_at: 0n,
      triggered_price: undefined,
    });
    // The venue's own default filter is TAKE_PROFIT: a list without stop_type omits the stop-loss.
    const bare = await h.get(`/v1/orders/tpsl?account=${trader.address}`);
    expect(bare.json['data'].orders.map((o: { order_id: string }) => o.order_id)).toEqual([tp.order_id]);
    const both = await h.get(`/v1/orders/tpsl?account=${trader.address}&stop_type=STOP_TYPE_NONE`);
    expect(canonicalTpslOrdersSchema.safeParse(both.json['data']).error?.issues ?? []).toEqual([]);
    expect(both.json['data']).toMatchObject({ total: '2', page: 1, limit: 100 });

    await markTo('55000');
    const fired = await orderOf(tpsl, sl.order_id);
    expect(fired.status).toBe('TPSL_ORDER_STATUS_TRIGGERED');
    expect(fired.triggered_at).toBe(BigInt(clock.now()) * 1_000_000n);
    expect(Number(fired.triggered_price)).toBeLessThan(58_500);
    expect((await trader.position()).size).toBe('0.001');
    expect((await orderOf(tpsl, tp.order_id)).status).toBe('TPSL_ORDER_STATUS_ACCEPTED');

    // Not before the lag: a block in between leaves it triggered.
    await clock.advance(LAG_MS - 1);
    h.sim.controls.advanceBlocks(1);
    expect((await orderOf(tpsl, sl.order_id)).status).toBe('TPSL_ORDER_STATUS_TRIGGERED');
    await clock.advance(1);
    h.sim.controls.advanceBlocks(1);
    const done = await orderOf(tpsl, sl.order_id);
    expect(done).toMatchObject({ status: 'TPSL_ORDER_STATUS_SUCCESS', filled_size: '0.001' });
    expect((await trader.position()).size).toBe(FLAT);

    // Order history: the account's own reduce-only market sell, mined in the TP/SL's execution.
    const history = (await rest.orderHistory({ account: trader.address })).orders;
    const execution = history.find((o) => o.tx_hash === done.triggered_tx_hash);
    expect(execution).toMatchObject({ side: 'SELL', type: 'MARKET', reduce_only: true, status: 'ORDER_STATUS_FILLED' });
    expect(execution?.filled_size).toBe('0.001');
    // Trade history and the fills channel: its fills, as any order's.
    const trades = (await rest.tradeHistory({ account: trader.address })).trades;
    const executed = trades.filter((t) => t.order_id === execution?.id);
    expect(executed.length).toBeGreaterThan(0);
    const frame = await fills.next((f) => (f['data'] as { order_id?: string } | undefined)?.order_id === execution?.id);
    expect(executed.map((t) => t.id)).toContain((frame['data'] as { id: string }).id);
    expect(fills.schemaFailures).toEqual([]);
    fills.close();

    // The take-profit is still there; cancelled, it is gone from the active set and cannot be cancelled twice.
    expect(await tpsl.cancel(tp.order_id)).toMatchObject({ success: true });
    expect((await orderOf(tpsl, tp.order_id)).status).toBe('TPSL_ORDER_STATUS_CANCELLED');
    const again = await tpsl.cancel(tp.order_id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(VenueError);
    expect((again as VenueError).message).toMatch(/is TPSL_ORDER_STATUS_CANCELLED: it is finished; only an ACCEPTED/);
    const unknown = await tpsl.cancel('tpsl-0').catch((e: unknown) => e);
    expect((unknown as VenueError).httpStatus).toBe(404);
  });

  it("the keeper's bounded list: every active order however old, and of the ended ones those created since the time asked", async () => {
    const { trader, tpsl } = await longTrader();
    const venue = tpslVenueClient({
      rest,
      account: trader.address,
      signer: trader.signer,
      context: () => context,
      clock,
    });
    const oldActive = await tpsl.place({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '50000' });
    const oldEnded = await tpsl.place({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '51000' });
    await tpsl.cancel(oldEnded.order_id);
    await clock.advance(3_600_000);
    const sinceMs = clock.now();
    const newEnded = await tpsl.place({ ...STOP, stopType: 'TAKE_PROFIT', stopPrice: '90000' });
    await tpsl.cancel(newEnded.order_id);
    const newActive = await tpsl.place({ ...STOP, stopType: 'TAKE_PROFIT', stopPrice: '91000' });

    const bounded = new Map((await venue.listAll(sinceMs)).map((r) => [r.order_id, r.status]));
    expect(bounded.get(oldActive.order_id)).toBe('TPSL_ORDER_STATUS_ACCEPTED');
    expect(bounded.has(oldEnded.order_id)).toBe(false);
    expect(bounded.get(newEnded.order_id)).toBe('TPSL_ORDER_STATUS_CANCELLED');
    expect(bounded.get(newActive.order_id)).toBe('TPSL_ORDER_STATUS_ACCEPTED');
    // Without a time, every order of the account.
    const all = new Set((await venue.listAll()).map((r) => r.order_id));
    expect([oldActive, oldEnded, newEnded, newActive].every((o) => all.has(o.order_id))).toBe(true);
    await tpsl.cancel(oldActive.order_id);
    await tpsl.cancel(newActive.order_id);
  });

  it('POST /_sim/mark (--admin) drives a take-profit of a short through its stop; it fires on the mark', async () => {
    expect((await h.post('/_sim/mark', { market_id: 1, price: '65000' })).status).toBe(200);
    h.sim.controls.advanceBlocks(1);
    const trader = await SimRestTrader.create(h);
    const sold = await trader.place({ side: 1, size_steps: 100, price_ticks: 0, order_type: 0, time_in_force: 3 });
    expect(sold.status, JSON.stringify(sold.json)).toBe(200);
    await grant(trader, '10000');
    const tpsl = new TpslClient({ rest, context, signer: trader.signer, account: trader.address, clock });
    const tp = await tpsl.place({ ...STOP, side: 'BUY', stopType: 'TAKE_PROFIT', stopPrice: '60000' });
    h.sim.controls.advanceBlocks(1);
    expect((await orderOf(tpsl, tp.order_id)).status).toBe('TPSL_ORDER_STATUS_ACCEPTED');
    const moved = await h.post('/_sim/mark', { market_id: '1', price: 57000 });
    expect(moved).toMatchObject({ status: 200, json: { data: { market_id: 1, mark_price: '57000' } } });
    h.sim.controls.advanceBlocks(1);
    expect((await orderOf(tpsl, tp.order_id)).status).toBe('TPSL_ORDER_STATUS_TRIGGERED');
    await clock.advance(LAG_MS);
    h.sim.controls.advanceBlocks(1);
    expect((await orderOf(tpsl, tp.order_id)).status).toBe('TPSL_ORDER_STATUS_SUCCESS');
    expect((await trader.position()).size).toBe(FLAT);
    expect((await h.post('/_sim/mark', { market_id: 99, price: '1' })).json['error'].code).toBe('NotFound');
    expect((await h.post('/_sim/mark', { market_id: 1, price: 'x' })).status).toBe(400);
    expect((await h.post('/_sim/mark', { market_id: 1, price: 1e21 })).status).toBe(400);
    expect((await h.post('/_sim/mark', { market_id: 1, price: '0' })).json['error'].message).toMatch(/positive/);
    expect((await h.get('/_sim/mark')).status).toBe(405);
  });

  it('refuses execution while the budget is missing, spent or expired; cancel-all leaves the triggered order', async () => {
    const { trader, tpsl } = await longTrader();
    const sl = await tpsl.place({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '50000' });
    const sl2 = await tpsl.place({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '40000' });
    const tp = await tpsl.place({ ...STOP, stopType: 'TAKE_PROFIT', stopPrice: '80000' });
    const refusal = () =>
      h.sim.controls
        .state()
        .tpslOrders(trader.address)
        .find((o) => o.orderId === sl.order_id);
    await markTo('48000');
    await clock.advance(LAG_MS);
    h.sim.controls.advanceBlocks(1);
    // No approve-single yet: it stays triggered (the venue keeps trying), the position is untouched.
    expect((await orderOf(tpsl, sl.order_id)).status).toBe('TPSL_ORDER_STATUS_TRIGGERED');
    expect(refusal()?.refusal).toMatch(/^AllowanceExpired\(/);
    expect((await trader.position()).size).toBe('0.001');

    // Cancel-all: the ACCEPTED ones go, the TRIGGERED one stays (it is executing).
    expect(await tpsl.cancelAll(1)).toMatchObject({ success: true, cancelled_count: 2 });
    const statuses = (await tpsl.listAll()).orders.map((o) => [o.order_id, o.status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        [sl.order_id, 'TPSL_ORDER_STATUS_TRIGGERED'],
        [sl2.order_id, 'TPSL_ORDER_STATUS_CANCELLED'],
        [tp.order_id, 'TPSL_ORDER_STATUS_CANCELLED'],
      ]),
    );
    const active = await tpsl.list({ statuses: ['TPSL_ORDER_STATUS_ACCEPTED', 'TPSL_ORDER_STATUS_TRIGGERED'] });
    expect(active.orders.map((o) => o.order_id)).toEqual([sl.order_id]);

    // A budget below the order's notional (0.001 BTC at ~48000 is ~48 USD): spent, still refused.
    await grant(trader, '10');
    h.sim.controls.advanceBlocks(1);
    expect(refusal()?.refusal).toMatch(/^AllowanceExhausted\(/);
    // A budget that has expired: refused.
    await grant(trader, '10000', 5);
    await clock.advance(6_000);
    h.sim.controls.advanceBlocks(1);
    expect(refusal()?.refusal).toMatch(/^AllowanceExpired\(/);
    expect((await trader.position()).size).toBe('0.001');
    // A live budget: it executes, and its fills spend the budget.
    await grant(trader, '10000');
    h.sim.controls.advanceBlocks(1);
    expect((await orderOf(tpsl, sl.order_id)).status).toBe('TPSL_ORDER_STATUS_SUCCESS');
    expect((await trader.position()).size).toBe(FLAT);
    const left = h.sim.controls.state().allowance(trader.address)?.budgetWei ?? 0n;
    expect(left).toBeLessThan(10_000n * 10n ** 18n);
    expect(left).toBeGreaterThan(9_900n * 10n ** 18n);
  });

  it('cancels an order with nothing left to reduce, and refuses what the venue cannot take', async () => {
    const { trader, tpsl } = await longTrader();
    await grant(trader, '10000');
    const buyStop = await tpsl.place({ ...STOP, side: 'BUY', stopType: 'STOP_LOSS', stopPrice: '90000' });
    await markTo('95000');
    await clock.advance(LAG_MS);
    h.sim.controls.advanceBlocks(1);
    // A BUY closes a short; the account is long: nothing to reduce.
    expect((await orderOf(tpsl, buyStop.order_id)).status).toBe('TPSL_ORDER_STATUS_CANCELLED');
    expect((await trader.position()).size).toBe('0.001');

    const refused = async (order: Parameters<TpslClient['place']>[0]) =>
      ((await tpsl.place(order).catch((e: unknown) => e)) as VenueError).message;
    expect(await refused({ ...STOP, size: '0.000015', stopType: 'STOP_LOSS', stopPrice: '50000' })).toMatch(
      /size must be a whole multiple of step_size 0.00001 of market 1, got 0.000015/,
    );
    expect(await refused({ ...STOP, marketId: 99, stopType: 'STOP_LOSS', stopPrice: '50000' })).toMatch(
      /NotFound: market 99 does not exist/,
    );
    expect(
      await refused({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '50000', orderType: 'LIMIT', limitPrice: '49999.95' }),
    ).toMatch(/limit_price must be a whole multiple of step_price 0.1/);
    expect(
      await refused({
        ...STOP,
        stopType: 'STOP_LOSS',
        stopPrice: '50000',
        orderType: 'LIMIT',
        limitPrice: '49990',
        tif: 'GTT',
      }),
    ).toMatch(/tif GTT needs an expiry/);

    // Another key than the account's session signer: refused, naming who signed.
    const stranger = new TpslClient({ rest, context, signer: trader.account, account: trader.address, clock });
    const stolen = (await stranger
      .place({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '50000' })
      .catch((e: unknown) => e)) as VenueError;
    expect(stolen.kind).toBe('SignerNotAuthorized');
    expect(stolen.message).toContain(`SignerNotAuthorized(${trader.account.address})`);

    // The same signed request twice places one order; an expired deadline is refused.
    const body = await tpsl.placeBody({ ...STOP, stopType: 'STOP_LOSS', stopPrice: '50000' });
    const first = await rest.placeTpslOrder(body);
    const replay = (await rest.placeTpslOrder(body).catch((e: unknown) => e)) as VenueError;
    expect(replay.httpStatus).toBe(409);
    expect(replay.message).toContain(`already placed order ${first.order_id}`);
    await clock.advance(3_601_000);
    const late = (await rest.placeTpslOrder({ ...body, size: '0.002' }).catch((e: unknown) => e)) as VenueError;
    expect(late.kind).toBe('PermitExpired');
    expect(isPerpbotError(late)).toBe(true);
  });

  it('takes a body in another client’s reading: numbers for enums, 0x hex, the sizePercentBps struct, mark as 1', async () => {
    const { trader } = await longTrader();
    const deadline = Math.floor(clock.now() / 1000) + 600;
    const message = {
      account: trader.address,
      marketId: 1n,
      side: 1,
      size: '0',
      stopType: 1,
      stopPrice: '50000',
      limitPrice: '0',
      orderType: 0,
      stopPriceOption: 1, // MARK_PRICE as the reversed numbering signs it
      tif: 3,
      deadline,
      sizePercentBps: 10_000,
    };
    const signature = await trader.signer.signTypedData({
      domain: h.domain,
      primaryType: 'PlaceTpslOrder',
      types: {
        PlaceTpslOrder: [
          { name: 'account', type: 'address' },
          { name: 'marketId', type: 'uint64' },
          { name: 'side', type: 'uint8' },
          { name: 'size', type: 'string' },
          { name: 'stopType', type: 'uint8' },
          { name: 'stopPrice', type: 'string' },
          { name: 'limitPrice', type: 'string' },
          { name: 'orderType', type: 'uint8' },
          { name: 'stopPriceOption', type: 'uint8' },
          { name: 'tif', type: 'uint8' },
          { name: 'deadline', type: 'uint32' },
          { name: 'sizePercentBps', type: 'uint32' },
        ],
      },
      message,
    });
    const placed = await h.post('/v1/orders/tpsl', {
      account: trader.address,
      market_id: 1,
      side: 1,
      size: '0',
      stop_type: 1,
      stop_price: '50000',
      limit_price: '0',
      order_type: 0,
      stop_price_option: 'MARK_PRICE',
      tif: 3,
      size_percent_bps: '10000',
      deadline: String(deadline),
      signer: trader.signer.address,
      signature,
    });
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);
    const listed = await h.get(
      `/v1/orders/tpsl?account=${trader.address}&stop_type=STOP_LOSS&statuses=TPSL_ORDER_STATUS_ACCEPTED`,
    );
    expect(listed.json['data'].orders[0]).toMatchObject({
      order_id: placed.json['data'].order_id,
      side: 'SELL',
      size: '0',
      size_percent_bps: 10_000,
      stop_price_option: 'MARK_PRICE',
      tif: 'IOC',
    });
    // The whole position, whatever its size, at the stop.
    await grant(trader, '10000');
    await markTo('45000');
    await clock.advance(LAG_MS);
    h.sim.controls.advanceBlocks(1);
    expect((await trader.position()).size).toBe(FLAT);
  });
});
