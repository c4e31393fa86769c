import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatUnits } from 'viem';
import { ManualClock } from '../../src/core/clock.js';
import { errorOf, limitOrder, placeHash, SimRestHarness, type PlaceExtras } from './simRestHarness.js';
import { readMarket, readMarkets, signedSteps, SimRestTrader, wei, type MarketWire } from './simRestTrader.js';

/**
 * Order rules over real HTTP with viem-signed permits. Each test gets a fresh simulator with no
 * blocks (so no synthetic makers and a still oracle), no registration lag and a manual clock:
 * the book holds exactly what the test placed, so every fill can be predicted.
 */
let h: SimRestHarness;
let clock: ManualClock;
let btc: MarketWire;

beforeEach(async () => {
  clock = new ManualClock(Date.now());
  h = await SimRestHarness.start({ seed: 31, blockMs: 0, registrationLagMs: 0, clock });
  btc = await readMarket(h, 1);
});
afterEach(async () => {
  await h.close();
});

const P = 600_000;
const SELL = 1;
const BUY = 0;

/** What the place answer reports as filled_quantity for `steps` of market 1. */
const quantity = (steps: number): string => formatUnits(BigInt(steps) * wei(btc.config.step_size), 18);
const twoTraders = (): Promise<[SimRestTrader, SimRestTrader]> =>
  Promise.all([SimRestTrader.create(h), SimRestTrader.create(h)]);

describe('simulator REST: markets', () => {
  it('serves at least three markets, market 1 BTC/USDC, each enforcing its own grid, minimum, leverage cap and flags', async () => {
    const markets = await readMarkets(h);
    expect(markets.length).toBeGreaterThanOrEqual(3);
    expect(markets.find((m) => m.market_id === '1')?.config.name).toBe('BTC/USDC');
    expect(new Set(markets.map((m) => m.market_id)).size).toBe(markets.length);
    const tradable = markets.filter((m) => m.active && m.config.unlocked);
    expect(tradable.length).toBeGreaterThanOrEqual(3);
    for (const market of markets) {
      for (const field of ['step_size', 'step_price', 'min_order_size', 'max_leverage'] as const) {
        expect(wei(market.config[field])).toBeGreaterThan(0n);
      }
      expect(wei(market.mark_price)).toBeGreaterThan(0n);
      const id = Number(market.market_id);
      const trader = await SimRestTrader.create(h);
      // The smallest accepted size on this market's grid, and a bid 10% under its mark.
      const minSteps =
        (wei(market.config.min_order_size) + wei(market.config.step_size) - 1n) / wei(market.config.step_size);
      const ticks = Number((wei(market.mark_price) * 9n) / 10n / wei(market.config.step_price));
      const order = { market_id: id, size_steps: Number(minSteps), price_ticks: ticks };
      if (!tradable.includes(market)) {
        const refused = await trader.place(order);
        expect(errorOf(refused)).toEqual({
          status: 400,
          code: 'FailedPrecondition',
          message: `FailedPrecondition: market ${id} (${market.display_name}) is ${market.active ? 'locked' : 'not active'}`,
        });
        continue;
      }
      const below = await trader.place({ ...order, size_steps: Number(minSteps) - 1 });
      const belowSize = formatUnits((minSteps - 1n) * wei(market.config.step_size), 18);
      expect(errorOf(below)).toEqual({
        status: 400,
        code: 'InvalidArgument',
        message: `InvalidArgument: order size ${belowSize} (size_steps ${minSteps - 1n}) is below min_order_size ${market.config.min_order_size} of market ${id}`,
      });
      expect((await trader.place(order)).status).toBe(200);
      const [resting] = await trader.openOrders(id);
      expect(resting).toMatchObject({ market_id: id, size_steps: Number(minSteps), price_ticks: ticks });
      const cap = Number(market.config.max_leverage);
      const tooHigh = await trader.leverage(id, cap + 1);
      expect(errorOf(tooHigh).message).toBe(
        `InvalidArgument: leverage ${cap + 1} is above max_leverage ${market.config.max_leverage} of market ${id}`,
      );
    }
  });
});

describe('simulator REST: time in force', () => {
  it('GTT rests with an expiry ttl_units seconds ahead, trades until then and never after, and expires at a block', async () => {
    const [maker, taker] = await twoTraders();
    const placedAt = clock.now();
    expect((await maker.place({ size_steps: 40, price_ticks: P, time_in_force: 1 }, { ttl_units: 5 })).status).toBe(
      200,
    );
    const [gtt] = await maker.openOrders();
    expect(gtt).toMatchObject({ time_in_force: 1, size_steps: 40, expires_at_ms: placedAt + 5000 });

    await clock.advance(4999);
    const before = await taker.place({ side: SELL, size_steps: 20, price_ticks: P, time_in_force: 3 });
    expect(before.json['data'].filled_quantity).toBe(quantity(20));
    await clock.advance(1);
    const after = await taker.place({ side: SELL, size_steps: 20, price_ticks: P, time_in_force: 3 });
    expect(after.json['data'].filled_quantity).toBe('0');
    expect(await maker.openOrders()).toEqual([]);

    // Without any placement in the market, the next block takes an expired order off the book.
    expect((await maker.place({ price_ticks: P - 1, time_in_force: 1 }, { ttl_units: 1 })).status).toBe(200);
    expect(await maker.openOrders()).toHaveLength(1);
    await clock.advance(1000);
    h.sim.controls.advanceBlocks(1);
    expect(await maker.openOrders()).toEqual([]);
  });

  it('refuses GTT without ttl_units and ttl_units without GTT', async () => {
    const trader = await SimRestTrader.create(h);
    expect(errorOf(await trader.place({ time_in_force: 1 }))).toEqual({
      status: 400,
      code: 'InvalidArgument',
      message: 'InvalidArgument: GTT orders need ttl_units (seconds) of at least 1, got 0',
    });
    expect(errorOf(await trader.place({ time_in_force: 0 }, { ttl_units: 5 })).message).toBe(
      'InvalidArgument: ttl_units is only valid with GTT (time_in_force 1), got time_in_force 0',
    );
  });

  it('FOK fills completely or not at all, limit and market alike', async () => {
    const [maker, taker] = await twoTraders();
    await maker.place({ side: SELL, size_steps: 20, price_ticks: P });
    await maker.place({ side: SELL, size_steps: 20, price_ticks: P + 1 });
    const killed = await taker.place({ size_steps: 50, price_ticks: P + 1, time_in_force: 2 });
    expect(killed.json['data']).toMatchObject({ filled_quantity: '0', filled_percent: 0 });
    expect((await maker.openOrders()).map((o) => o['filled_steps'])).toEqual([0, 0]);
    // Within its bound only the first level counts: 30 of 20 available is still killed.
    const bounded = await taker.place({ size_steps: 30, price_ticks: P, order_type: 0, time_in_force: 2 });
    expect(bounded.json['data'].filled_quantity).toBe('0');
    const filled = await taker.place({ size_steps: 40, price_ticks: P + 1, order_type: 0, time_in_force: 2 });
    expect(filled.json['data']).toMatchObject({ filled_quantity: quantity(40), filled_percent: 100 });
    expect(await maker.openOrders()).toEqual([]);
    expect(await taker.openOrders()).toEqual([]);
    expect(signedSteps(btc, await taker.position())).toBe(40n);
  });

  it('IOC fills what crosses and cancels the rest instead of resting it', async () => {
    const [maker, taker] = await twoTraders();
    await maker.place({ side: SELL, size_steps: 20, price_ticks: P });
    await maker.place({ side: SELL, size_steps: 20, price_ticks: P + 5 });
    const answer = await taker.place({ size_steps: 30, price_ticks: P + 4, time_in_force: 3 });
    expect(answer.json['data']).toMatchObject({ filled_quantity: quantity(20), filled_percent: 66 });
    expect(await taker.openOrders()).toEqual([]);
    expect(signedSteps(btc, await taker.position())).toBe(20n);
    // The level beyond the limit is untouched.
    expect(await maker.openOrders()).toMatchObject([{ price_ticks: P + 5, filled_steps: 0 }]);
    // A market IOC never trades past its price_ticks bound.
    const bounded = await taker.place({ size_steps: 20, price_ticks: P + 4, order_type: 0, time_in_force: 3 });
    expect(bounded.json['data'].filled_quantity).toBe('0');
  });
});

describe('simulator REST: post-only and reduce-only', () => {
  it('refuses a post-only order that would cross with PostOnlyWouldCross(price, best) and rests one that would not', async () => {
    const [maker, quoter] = await twoTraders();
    await maker.place({ side: SELL, size_steps: 20, price_ticks: P });
    const pair = quoter.pair();
    for (const price of [P, P + 3]) {
      const crossing = await h.place(
        quoter.signer,
        quoter.address,
        limitOrder({ price_ticks: price, post_only: true }),
        pair,
      );
      expect(errorOf(crossing)).toEqual({
        status: 400,
        code: 'FailedPrecondition',
        message: `FailedPrecondition: PlaceOrder reverted: PostOnlyWouldCross(${price},${P})`,
      });
    }
    // The refusals consumed nothing: the same pair places the passive quote.
    expect(
      (await h.place(quoter.signer, quoter.address, limitOrder({ price_ticks: P - 1, post_only: true }), pair)).status,
    ).toBe(200);
    expect(await quoter.openOrders()).toMatchObject([{ price_ticks: P - 1, post_only: true, filled_steps: 0 }]);
    expect(await maker.openOrders()).toMatchObject([{ price_ticks: P, filled_steps: 0 }]);
  });

  it('refuses a reduce-only order that would open or increase with ReduceOnlyWouldIncrease(signed size), and clips one larger than the position', async () => {
    const [long, short] = await twoTraders();
    const flat = await long.place({ side: SELL, size_steps: 20, price_ticks: P, reduce_only: true });
    expect(errorOf(flat)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: 'FailedPrecondition: PlaceOrder reverted: ReduceOnlyWouldIncrease(0)',
    });
    await short.place({ side: SELL, size_steps: 30, price_ticks: P });
    expect((await long.place({ size_steps: 30, price_ticks: P, time_in_force: 3 })).json['data'].filled_percent).toBe(
      100,
    );

    for (const [trader, increasingSide] of [
      [long, BUY],
      [short, SELL],
    ] as const) {
      const size = signedSteps(btc, await trader.position());
      expect(size).toBe(increasingSide === BUY ? 30n : -30n);
      const refused = await trader.place({ side: increasingSide, size_steps: 20, price_ticks: P, reduce_only: true });
      expect(errorOf(refused).message).toBe(
        `FailedPrecondition: PlaceOrder reverted: ReduceOnlyWouldIncrease(${size})`,
      );
    }
    // Larger than the position: clipped to it (and exempt from the minimum size).
    expect((await long.place({ side: SELL, size_steps: 500, price_ticks: P + 100, reduce_only: true })).status).toBe(
      200,
    );
    expect(await long.openOrders()).toMatchObject([{ side: SELL, size_steps: 30, reduce_only: true }]);
  });
});

describe('simulator REST: self-trade prevention', () => {
  /** The self-trader rests an ask, another account rests one behind it at the same price, then the self-trader buys. */
  async function selfTrade(stpMode: number) {
    const [self, other] = await twoTraders();
    await self.place({ side: SELL, size_steps: 20, price_ticks: P });
    await other.place({ side: SELL, size_steps: 20, price_ticks: P });
    const taker = await self.place({ size_steps: 20, price_ticks: P, stp_mode: stpMode });
    return { self, other, taker: taker.json['data'] };
  }

  it('ExpireMaker cancels the own resting order and keeps trading with the next one', async () => {
    const { self, other, taker } = await selfTrade(0);
    expect(taker).toMatchObject({ filled_quantity: quantity(20), filled_percent: 100 });
    expect(await self.openOrders()).toEqual([]);
    expect(await other.openOrders()).toEqual([]);
    expect(signedSteps(btc, await self.position())).toBe(20n);
    expect(signedSteps(btc, await other.position())).toBe(-20n);
  });

  it('ExpireTaker cancels the incoming order and leaves the book as it was', async () => {
    const { self, other, taker } = await selfTrade(1);
    expect(taker).toMatchObject({ filled_quantity: '0', filled_percent: 0 });
    expect(await self.openOrders()).toMatchObject([{ side: SELL, size_steps: 20, filled_steps: 0 }]);
    expect(await other.openOrders()).toMatchObject([{ side: SELL, filled_steps: 0 }]);
    expect(signedSteps(btc, await self.position())).toBe(0n);
  });

  it('ExpireBoth cancels the own resting order and the incoming one, and trades with nobody', async () => {
    const { self, other, taker } = await selfTrade(2);
    expect(taker).toMatchObject({ filled_quantity: '0', filled_percent: 0 });
    expect(await self.openOrders()).toEqual([]);
    expect(await other.openOrders()).toMatchObject([{ side: SELL, filled_steps: 0 }]);
    expect(signedSteps(btc, await self.position())).toBe(0n);
  });
});

describe('simulator REST: optional place fields', () => {
  /** client_order_id at the top of uint64, which only a decimal string carries exactly. */
  const clientOrderId = '18446744073709551615';
  const extras: PlaceExtras = { builder_id: 7, builder_fee_bps: 15, client_order_id: clientOrderId, ttl_units: 60 };

  it('places with builder_id, builder_fee_bps, client_order_id and ttl_units when the signed hash commits to each of them', async () => {
    const trader = await SimRestTrader.create(h);
    const order = limitOrder({ time_in_force: 1 });
    const pair = trader.pair();
    const permit = await h.permit(trader.signer, trader.address, placeHash(order, extras), pair);
    // Each field sent differently from what was signed: a different hash, so a different signer.
    const tampered: PlaceExtras[] = [
      { ...extras, builder_id: 8 },
      { builder_id: 7, client_order_id: clientOrderId, ttl_units: 60 },
      { ...extras, builder_fee_bps: 16 },
      { ...extras, client_order_id: '18446744073709551614' },
      { ...extras, ttl_units: 61 },
    ];
    for (const sent of tampered) {
      const answer = await h.post('/v1/orders/place', { ...order, ...sent, permit });
      const named = await h.recoverPermitSigner(permit, placeHash(order, sent));
      expect(named).not.toBe(trader.signer.address);
      expect(errorOf(answer)).toEqual({
        status: 400,
        code: 'FailedPrecondition',
        message: `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${named})`,
      });
    }
    const placedAt = clock.now();
    expect((await h.post('/v1/orders/place', { ...order, ...extras, permit })).status).toBe(200);
    expect(await trader.openOrders()).toMatchObject([
      { client_order_id: clientOrderId, time_in_force: 1, expires_at_ms: placedAt + 60_000 },
    ]);
  });

  it('treats builder_fee_bps 0 as absent (no hash slot) and refuses a fee the signature did not cover', async () => {
    const trader = await SimRestTrader.create(h);
    const order = limitOrder();
    const withoutFee = { builder_id: 3 };
    const pair = trader.pair();
    const permit = await h.permit(trader.signer, trader.address, placeHash(order, withoutFee), pair);
    const withFee = { ...withoutFee, builder_fee_bps: 1 };
    const refused = await h.post('/v1/orders/place', { ...order, ...withFee, permit });
    expect(errorOf(refused).message).toBe(
      `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${await h.recoverPermitSigner(permit, placeHash(order, withFee))})`,
    );
    expect((await h.post('/v1/orders/place', { ...order, ...withoutFee, builder_fee_bps: 0, permit })).status).toBe(
      200,
    );
  });
});
