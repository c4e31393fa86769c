import { describe, expect, it } from 'vitest';
import { ALICE, BOB, CAROL, T0, limit, market, ofType, quietExchange, refusalText } from './exchangeFixture.js';

describe('price-time priority', () => {
  it('fills the best price first, then the oldest order at a price', () => {
    const ex = quietExchange();
    const older = ex.placeOrder(ALICE, limit(1, 650_010, 20), T0).order;
    const better = ex.placeOrder(BOB, limit(1, 650_005, 20), T0).order;
    const newer = ex.placeOrder(BOB, limit(1, 650_010, 20), T0).order;
    const taker = ex.placeOrder(CAROL, limit(0, 650_010, 50), T0);
    const trades = ofType(taker.events, 'trade').map((e) => e.trade);
    expect(trades.map((t) => [t.maker_order_id, t.price, t.size])).toEqual([
      [better.order_id, '65000.5', '0.0002'],
      [older.order_id, '65001', '0.0002'],
      [newer.order_id, '65001', '0.0001'],
    ]);
    expect(ex.order(newer.order_id)).toMatchObject({
      status: 'ORDER_STATUS_OPEN',
      filled_size: '0.0001',
      filled_steps: 10,
    });
    expect(ex.order(older.order_id)?.status).toBe('ORDER_STATUS_FILLED');
  });

  it('trades at the maker price, not the taker limit', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_990, 20), T0);
    const sell = ex.placeOrder(BOB, limit(1, 649_000, 20), T0);
    expect(ofType(sell.events, 'trade')[0]?.trade.price).toBe('64999');
    expect(sell.order.status).toBe('ORDER_STATUS_FILLED');
  });

  it('does not trade orders that do not cross', () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 649_990, 20), T0);
    const ask = ex.placeOrder(BOB, limit(1, 649_991, 20), T0);
    expect(ofType(ask.events, 'trade')).toEqual([]);
    expect(ex.book(1)).toEqual({
      market_id: 1,
      bids: [{ price: '64999', quantity: '0.0002', order_count: 1 }],
      asks: [{ price: '64999.1', quantity: '0.0002', order_count: 1 }],
    });
  });
});

describe('partial fills', () => {
  it('a partially filled resting order stays OPEN with its filled size; the taker remainder rests (GTC)', () => {
    const ex = quietExchange();
    const maker = ex.placeOrder(ALICE, limit(1, 650_000, 100), T0).order;
    const taker = ex.placeOrder(BOB, limit(0, 650_000, 30), T0);
    expect(taker.order).toMatchObject({ status: 'ORDER_STATUS_FILLED', filled_size: '0.0003' });
    expect(taker.filled_quantity).toBe('0.0003');
    expect(taker.filled_percent).toBe(100);
    expect(ex.order(maker.order_id)).toMatchObject({
      status: 'ORDER_STATUS_OPEN',
      filled_size: '0.0003',
      size_steps: 100,
    });
    const big = ex.placeOrder(CAROL, limit(0, 650_000, 120), T0);
    expect(big.order).toMatchObject({ status: 'ORDER_STATUS_OPEN', filled_steps: 70 });
    expect(big.filled_percent).toBe(58);
    expect(ex.book(1).bids).toEqual([{ price: '65000', quantity: '0.0005', order_count: 1 }]);
    expect(ex.book(1).asks).toEqual([]);
  });
});

describe('time in force', () => {
  const setup = () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(1, 650_000, 20), T0);
    ex.placeOrder(ALICE, limit(1, 650_010, 20), T0);
    return ex;
  };

  it.each([
    { tif: 0, name: 'GTC rests the remainder', status: 'ORDER_STATUS_OPEN', filled: 40, resting: true },
    { tif: 3, name: 'IOC cancels the remainder', status: 'ORDER_STATUS_CANCELLED', filled: 40, resting: false },
    {
      tif: 2,
      name: 'FOK with too little liquidity fills nothing',
      status: 'ORDER_STATUS_CANCELLED',
      filled: 0,
      resting: false,
    },
  ])('$name', ({ tif, status, filled, resting }) => {
    const ex = setup();
    const placed = ex.placeOrder(BOB, limit(0, 650_010, 60, { time_in_force: tif }), T0);
    expect(placed.order.status).toBe(status);
    expect(placed.order.filled_steps).toBe(filled);
    expect(ex.openOrders(BOB).length).toBe(resting ? 1 : 0);
    // FOK that fails leaves the book untouched.
    if (tif === 2) expect(ex.book(1).asks.length).toBe(2);
  });

  it('FOK fills completely when the liquidity within its limit is enough', () => {
    const ex = setup();
    const placed = ex.placeOrder(BOB, limit(0, 650_010, 40, { time_in_force: 2 }), T0);
    expect(placed.order.status).toBe('ORDER_STATUS_FILLED');
    expect(ex.book(1).asks).toEqual([]);
  });

  it('FOK does not count liquidity beyond its limit', () => {
    const ex = setup();
    const placed = ex.placeOrder(BOB, limit(0, 650_000, 40, { time_in_force: 2 }), T0);
    expect(placed.order).toMatchObject({ status: 'ORDER_STATUS_CANCELLED', filled_steps: 0 });
  });

  it('GTT rests until a block at or after its expiry (ttl_units are seconds)', () => {
    const ex = quietExchange();
    const gtt = ex.placeOrder(ALICE, limit(0, 640_000, 20, { time_in_force: 1, ttl_units: 30 }), T0).order;
    expect(gtt.expires_at_ms).toBe(T0 + 30_000);
    expect(ofType(ex.advanceBlock(1, T0 + 29_999).events, 'order')).toEqual([]);
    expect(ex.order(gtt.order_id)?.status).toBe('ORDER_STATUS_OPEN');
    const expired = ofType(ex.advanceBlock(2, T0 + 30_000).events, 'order');
    expect(expired.map((e) => [e.order.order_id, e.order.status])).toEqual([[gtt.order_id, 'ORDER_STATUS_CANCELLED']]);
    expect(ex.openOrders(ALICE)).toEqual([]);
  });

  it('an expired GTT order never trades, even before the next block sweeps it', () => {
    const ex = quietExchange();
    const gtt = ex.placeOrder(ALICE, limit(1, 650_000, 20, { time_in_force: 1, ttl_units: 5 }), T0).order;
    const taker = ex.placeOrder(BOB, limit(0, 650_000, 20), T0 + 5_000);
    expect(ofType(taker.events, 'trade')).toEqual([]);
    expect(ex.order(gtt.order_id)?.status).toBe('ORDER_STATUS_CANCELLED');
    expect(taker.order.status).toBe('ORDER_STATUS_OPEN');
  });
});

describe('post-only', () => {
  it.each([
    { side: 0 as const, price: 650_000, crosses: true },
    { side: 0 as const, price: 650_001, crosses: true },
    { side: 0 as const, price: 649_999, crosses: false },
    { side: 1 as const, price: 640_000, crosses: true },
    { side: 1 as const, price: 640_001, crosses: false },
  ])('side $side at $price crosses=$crosses', ({ side, price, crosses }) => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(1, 650_000, 20), T0);
    ex.placeOrder(ALICE, limit(0, 640_000, 20), T0);
    const place = () => ex.placeOrder(BOB, limit(side, price, 20, { post_only: true }), T0);
    if (crosses) {
      const best = side === 0 ? 650_000 : 640_000;
      expect(refusalText(place)).toBe(`FailedPrecondition: PlaceOrder reverted: PostOnlyWouldCross(${price},${best})`);
      expect(ex.openOrders(BOB)).toEqual([]);
    } else {
      expect(place().order).toMatchObject({ status: 'ORDER_STATUS_OPEN', post_only: true });
    }
  });
});

describe('market orders and the slippage bound', () => {
  const book = () => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(1, 650_000, 20), T0);
    ex.placeOrder(ALICE, limit(1, 650_100, 20), T0);
    ex.placeOrder(ALICE, limit(0, 649_900, 20), T0);
    ex.placeOrder(ALICE, limit(0, 649_800, 20), T0);
    return ex;
  };

  it.each([
    { side: 0 as const, bound: 650_050, filled: 20, worst: '65000' },
    { side: 0 as const, bound: 650_100, filled: 40, worst: '65010' },
    { side: 1 as const, bound: 649_850, filled: 20, worst: '64990' },
    { side: 1 as const, bound: 0, filled: 40, worst: '64980' },
    { side: 0 as const, bound: 0, filled: 0, worst: undefined },
  ])('side $side bound $bound fills $filled steps, never beyond the bound', ({ side, bound, filled, worst }) => {
    const ex = book();
    const placed = ex.placeOrder(BOB, market(side, bound, 60), T0);
    const prices = ofType(placed.events, 'trade').map((e) => e.trade.price);
    expect(placed.order.filled_steps).toBe(filled);
    expect(prices.at(-1)).toBe(worst);
    expect(placed.order.status).toBe('ORDER_STATUS_CANCELLED');
  });

  it('a market FOK that cannot fill within its bound fills nothing', () => {
    const ex = book();
    const placed = ex.placeOrder(BOB, market(0, 650_050, 40, { time_in_force: 2 }), T0);
    expect(placed.order).toMatchObject({ status: 'ORDER_STATUS_CANCELLED', filled_steps: 0 });
  });

  it.each([0, 1])('a market order with time_in_force %i is refused with the venue text', (tif) => {
    const ex = book();
    expect(refusalText(() => ex.placeOrder(BOB, market(0, 650_050, 20, { time_in_force: tif }), T0))).toBe(
      `InvalidArgument: market orders require FOK or IOC time_in_force, got ${tif}`,
    );
  });
});

describe('self-trade prevention', () => {
  const setup = () => {
    const ex = quietExchange();
    const own = ex.placeOrder(ALICE, limit(1, 650_000, 20), T0).order;
    const other = ex.placeOrder(BOB, limit(1, 650_010, 20), T0).order;
    return { ex, own, other };
  };

  it.each([
    {
      mode: 0,
      name: 'ExpireMaker cancels the own resting order and keeps matching',
      ownStatus: 'ORDER_STATUS_CANCELLED',
      takerStatus: 'ORDER_STATUS_OPEN',
      filled: 20,
    },
    {
      mode: 1,
      name: 'ExpireTaker cancels the incoming remainder, own order stays',
      ownStatus: 'ORDER_STATUS_OPEN',
      takerStatus: 'ORDER_STATUS_CANCELLED',
      filled: 0,
    },
    {
      mode: 2,
      name: 'ExpireBoth cancels both',
      ownStatus: 'ORDER_STATUS_CANCELLED',
      takerStatus: 'ORDER_STATUS_CANCELLED',
      filled: 0,
    },
  ])('$name', ({ mode, ownStatus, takerStatus, filled }) => {
    const { ex, own, other } = setup();
    const taker = ex.placeOrder(ALICE, limit(0, 650_010, 40, { stp_mode: mode }), T0);
    expect(ex.order(own.order_id)?.status).toBe(ownStatus);
    expect(taker.order.status).toBe(takerStatus);
    expect(taker.order.filled_steps).toBe(filled);
    expect(ofType(taker.events, 'trade').every((e) => e.trade.maker === other.account)).toBe(true);
    // Never a trade with oneself.
    expect(ofType(taker.events, 'trade').some((e) => e.trade.maker === e.trade.taker)).toBe(false);
  });

  it('ExpireTaker keeps fills that happened before reaching the own order', () => {
    const ex = quietExchange();
    ex.placeOrder(BOB, limit(1, 649_990, 20), T0);
    ex.placeOrder(ALICE, limit(1, 650_000, 20), T0);
    const taker = ex.placeOrder(ALICE, limit(0, 650_010, 40, { stp_mode: 1 }), T0);
    expect(taker.order).toMatchObject({ status: 'ORDER_STATUS_CANCELLED', filled_steps: 20 });
  });
});

describe('cancel', () => {
  it('cancels by resting id, and cancel-all clears one market only', () => {
    const ex = quietExchange();
    const a = ex.placeOrder(ALICE, limit(0, 640_000, 20), T0).order;
    ex.placeOrder(ALICE, limit(0, 640_001, 20), T0);
    ex.placeOrder(ALICE, limit(0, 300_000, 20, { market_id: 2, size_steps: 100 }), T0);
    const result = ex.cancelOrder(ALICE, 1, BigInt(a.resting_order_id));
    expect(ofType(result.events, 'order').map((e) => e.order.status)).toEqual(['ORDER_STATUS_CANCELLED']);
    expect(ofType(result.events, 'book').map((e) => e.market_id)).toEqual([1]);
    expect(ex.openOrders(ALICE, 1).length).toBe(1);
    const all = ex.cancelAll(ALICE, 1);
    expect(all.cancelled.length).toBe(1);
    expect(ex.openOrders(ALICE).map((o) => o.market_id)).toEqual([2]);
  });

  it.each([
    { name: 'unknown id', who: ALICE, id: 999n, text: 'FailedPrecondition: CancelOrder reverted: OrderNotFound(999)' },
    {
      name: 'someone else’s order',
      who: BOB,
      id: 1n,
      text: 'FailedPrecondition: CancelOrder reverted: NotOrderOwner(1)',
    },
  ])('refuses $name', ({ who, id, text }) => {
    const ex = quietExchange();
    ex.placeOrder(ALICE, limit(0, 640_000, 20), T0);
    expect(refusalText(() => ex.cancelOrder(who, 1, id))).toBe(text);
  });

  it('refuses to cancel an order that already filled', () => {
    const ex = quietExchange();
    const maker = ex.placeOrder(ALICE, limit(0, 640_000, 20), T0).order;
    ex.placeOrder(BOB, limit(1, 640_000, 20), T0);
    expect(refusalText(() => ex.cancelOrder(ALICE, 1, BigInt(maker.resting_order_id)))).toBe(
      `FailedPrecondition: CancelOrder reverted: OrderNotFound(${maker.resting_order_id})`,
    );
  });
});
