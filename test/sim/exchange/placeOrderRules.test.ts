import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import type { PlaceOrderParams } from '../../../src/sim/exchange/exchangeRecords.js';
import { DEFAULT_MARKETS, type MarketDefinition } from '../../../src/sim/exchange/markets.js';
import { parseVenueErrorText } from '../../../src/venue/venueError.js';
import { ALICE, BOB, T0, limit, market, quietExchange, refusalText } from './exchangeFixture.js';

const STRANGER = '0x5555555555555555555555555555555555555555' as Address;

const restricted = (id: number, flags: Partial<MarketDefinition>): MarketDefinition => ({
  ...(DEFAULT_MARKETS[0] as MarketDefinition),
  market_id: id,
  ...flags,
});

describe('place-order rules', () => {
  it.each<{ name: string; params: PlaceOrderParams; text: string }>([
    {
      name: 'unknown market',
      params: limit(0, 650_000, 20, { market_id: 99 }),
      text: 'NotFound: market 99 does not exist',
    },
    {
      name: 'inactive market',
      params: limit(0, 1_000, 20, { market_id: 4 }),
      text: 'FailedPrecondition: market 4 (DOGE/USDC) is not active',
    },
    {
      name: 'market GTC',
      params: market(0, 650_000, 20, { time_in_force: 0 }),
      text: 'InvalidArgument: market orders require FOK or IOC time_in_force, got 0',
    },
    {
      name: 'market GTT',
      params: market(0, 650_000, 20, { time_in_force: 1, ttl_units: 5 }),
      text: 'InvalidArgument: market orders require FOK or IOC time_in_force, got 1',
    },
    { name: 'zero size', params: limit(0, 650_000, 0), text: 'InvalidArgument: size_steps must be at least 1, got 0' },
    {
      name: 'below min_order_size',
      params: limit(0, 650_000, 14),
      text: 'InvalidArgument: order size 0.00014 (size_steps 14) is below min_order_size 0.00015 of market 1',
    },
    {
      name: 'size above uint32',
      params: limit(0, 650_000, 2 ** 32),
      text: 'InvalidArgument: size_steps must be a uint32 (0 to 4294967295), got 4294967296',
    },
    {
      name: 'price above uint24',
      params: limit(0, 16_777_216, 20),
      text: 'InvalidArgument: price_ticks must be a uint24 (0 to 16777215), got 16777216',
    },
    {
      name: 'limit at price 0',
      params: limit(0, 0, 20),
      text: 'InvalidArgument: limit orders need price_ticks of at least 1, got 0',
    },
    {
      name: 'bad side',
      params: limit(0, 650_000, 20, { side: 2 }),
      text: 'InvalidArgument: side must be one of 0 (Buy), 1 (Sell), got 2',
    },
    {
      name: 'bad stp',
      params: limit(0, 650_000, 20, { stp_mode: 3 }),
      text: 'InvalidArgument: stp_mode must be one of 0 (ExpireMaker), 1 (ExpireTaker), 2 (ExpireBoth), got 3',
    },
    {
      name: 'bad tif',
      params: limit(0, 650_000, 20, { time_in_force: 4 }),
      text: 'InvalidArgument: time_in_force must be one of 0 (GTC), 1 (GTT), 2 (FOK), 3 (IOC), got 4',
    },
    {
      name: 'bad order type',
      params: limit(0, 650_000, 20, { order_type: 2 }),
      text: 'InvalidArgument: order_type must be one of 0 (Market), 1 (Limit), got 2',
    },
    {
      name: 'post-only IOC',
      params: limit(0, 650_000, 20, { post_only: true, time_in_force: 3 }),
      text: 'InvalidArgument: post_only orders must be limit orders with GTC or GTT time_in_force, got order_type 1 time_in_force 3',
    },
    {
      name: 'GTT without ttl',
      params: limit(0, 650_000, 20, { time_in_force: 1 }),
      text: 'InvalidArgument: GTT orders need ttl_units (seconds) of at least 1, got 0',
    },
    {
      name: 'ttl without GTT',
      params: limit(0, 650_000, 20, { ttl_units: 10 }),
      text: 'InvalidArgument: ttl_units is only valid with GTT (time_in_force 1), got time_in_force 0',
    },
    {
      name: 'client id above uint64',
      params: limit(0, 650_000, 20, { client_order_id: 1n << 64n }),
      text: 'InvalidArgument: client_order_id must be a uint64 (0 to 18446744073709551615), got 18446744073709551616',
    },
  ])('$name', ({ params, text }) => {
    const ex = quietExchange();
    expect(refusalText(() => ex.placeOrder(ALICE, params, T0))).toBe(text);
    expect(ex.openOrders(ALICE)).toEqual([]);
  });

  it('refuses an account without a deposit with the venue’s not-registered text', () => {
    const ex = quietExchange();
    const text = refusalText(() => ex.placeOrder(STRANGER, limit(0, 650_000, 20), T0));
    expect(text).toBe(`FailedPrecondition: account ${STRANGER} is not registered (userId 0)`);
    expect(parseVenueErrorText(text).kind).toBe('AccountNotRegistered');
    expect(ex.isRegistered(STRANGER)).toBe(false);
    // Reading does not register anybody.
    expect(ex.balance(STRANGER).balance).toBe('0');
    expect(ex.isRegistered(STRANGER)).toBe(false);
    ex.deposit(STRANGER, '1000');
    expect(ex.placeOrder(STRANGER, limit(0, 650_000, 20), T0).order.status).toBe('ORDER_STATUS_OPEN');
  });

  it.each([
    {
      flags: { reduce_only: true },
      params: limit(0, 650_000, 20, { market_id: 7 }),
      text: 'FailedPrecondition: market 7 (BTC/USDC) accepts reduce-only orders only',
    },
    {
      flags: { post_only: true },
      params: limit(0, 650_000, 20, { market_id: 7 }),
      text: 'FailedPrecondition: market 7 (BTC/USDC) accepts post-only orders only',
    },
    {
      flags: { config: { ...(DEFAULT_MARKETS[0] as MarketDefinition).config, unlocked: false } },
      params: limit(0, 650_000, 20, { market_id: 7 }),
      text: 'FailedPrecondition: market 7 (BTC/USDC) is locked',
    },
  ])('market flags: $text', ({ flags, params, text }) => {
    const ex = quietExchange({ markets: [restricted(7, flags)] });
    expect(refusalText(() => ex.placeOrder(ALICE, params, T0))).toBe(text);
  });

  it('a post-only market accepts post-only orders', () => {
    const ex = quietExchange({ markets: [restricted(7, { post_only: true })] });
    expect(ex.placeOrder(ALICE, limit(0, 650_000, 20, { market_id: 7, post_only: true }), T0).order.post_only).toBe(
      true,
    );
  });

  it('keeps client_order_id on the order and its wire forms', () => {
    const ex = quietExchange();
    const placed = ex.placeOrder(ALICE, limit(0, 650_000, 20, { client_order_id: (1n << 64n) - 1n }), T0).order;
    expect(placed.client_order_id).toBe('18446744073709551615');
    expect(ex.openOrders(ALICE)[0]?.client_order_id).toBe('18446744073709551615');
    expect(
      ex.placeOrder(ALICE, limit(0, 650_000, 20, { client_order_id: 0n }), T0).order.client_order_id,
    ).toBeUndefined();
  });
});

describe('reduce-only', () => {
  /** BOB long `steps` (bought from ALICE). */
  const long = (steps: number) => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(1, 650_000, steps), T0);
    ex.placeOrder(BOB, limit(0, 650_000, steps), T0);
    return ex;
  };

  it.each([
    { name: 'flat position', position: 0, side: 1 as const, args: '0' },
    { name: 'buy on a long', position: 100, side: 0 as const, args: '100' },
  ])('refuses a reduce-only order that would open or increase: $name', ({ position, side, args }) => {
    const ex = position === 0 ? quietExchange() : long(position);
    expect(refusalText(() => ex.placeOrder(BOB, limit(side, 650_000, 20, { reduce_only: true }), T0))).toBe(
      `FailedPrecondition: PlaceOrder reverted: ReduceOnlyWouldIncrease(${args})`,
    );
  });

  it('clips a reduce-only order larger than the position to the position', () => {
    const ex = long(100);
    ex.placeOrder(ALICE, limit(0, 640_000, 500), T0);
    const placed = ex.placeOrder(BOB, market(1, 600_000, 150, { reduce_only: true }), T0);
    expect(placed.order).toMatchObject({ size_steps: 100, filled_steps: 100, status: 'ORDER_STATUS_FILLED' });
    expect(ex.position(BOB, 1).size).toBe('0');
  });

  it('is exempt from min_order_size so dust can be closed', () => {
    const ex = long(20);
    ex.placeOrder(ALICE, limit(0, 640_000, 20), T0);
    ex.placeOrder(BOB, market(1, 600_000, 15), T0);
    expect(ex.placeOrder(BOB, market(1, 600_000, 5, { reduce_only: true }), T0).order.status).toBe(
      'ORDER_STATUS_FILLED',
    );
    expect(ex.position(BOB, 1).size_steps).toBe('0');
  });

  it('a resting reduce-only order never flips the position after it was closed another way', () => {
    const ex = long(100);
    const resting = ex.placeOrder(BOB, limit(1, 660_000, 100, { reduce_only: true }), T0).order;
    ex.placeOrder(ALICE, limit(0, 640_000, 100), T0);
    ex.placeOrder(BOB, market(1, 600_000, 100), T0);
    expect(ex.position(BOB, 1).size).toBe('0');
    const taker = ex.placeOrder(ALICE, limit(0, 660_000, 100), T0);
    expect(taker.order.filled_steps).toBe(0);
    expect(ex.order(resting.order_id)?.status).toBe('ORDER_STATUS_CANCELLED');
    expect(ex.position(BOB, 1).size).toBe('0');
  });
});
