import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import { AccountLedger } from '../../../src/sim/exchange/accountLedger.js';
import { EventCollector } from '../../../src/sim/exchange/eventCollector.js';
import { isExchangeRefusal } from '../../../src/sim/exchange/exchangeRefusal.js';
import { marketInitialMarginWei, sideNotionalsWei } from '../../../src/sim/exchange/initialMargin.js';
import { compileMarkets, DEFAULT_MARKETS, type MarketSpec } from '../../../src/sim/exchange/markets.js';
import { OrderEntry } from '../../../src/sim/exchange/orderEntry.js';
import { OrderStore } from '../../../src/sim/exchange/orderStore.js';
import { checkPlaceOrder } from '../../../src/sim/exchange/placeOrderChecks.js';
import { COUNTING_FROM_ONE } from '../../../src/sim/exchange/simIdBases.js';

/**
 * The kept margin side sums (OrderStore.marginNotionals, updated on rest, fill and retire) must
 * equal a full recomputation over the open orders after any sequence of places (which fill when
 * they cross), cancels, expiries and mark moves; so must every margin the ledger derives from them.
 */
const ACCOUNTS = [
  '0x1111111111111111111111111111111111111111',
  '0x2222222222222222222222222222222222222222',
  '0x3333333333333333333333333333333333333333',
] as Address[];
const T0 = 1_700_000_000_000;

/** Markets 1 (BTC) and 2 (ETH): orders are priced around their starting marks. */
const MIDS: Record<number, number> = { 1: 650_000, 2: 320_000 };

type Op =
  | {
      kind: 'place';
      who: number;
      marketId: 1 | 2;
      side: 0 | 1;
      offset: number;
      steps: number;
      tif: 0 | 1 | 2 | 3;
      orderType: 0 | 1;
      reduceOnly: boolean;
      stp: 0 | 1 | 2;
      ttl: number;
    }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'mark'; marketId: 1 | 2; priceWei: bigint }
  | { kind: 'time'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      who: fc.nat(ACCOUNTS.length - 1),
      marketId: fc.constantFrom(1 as const, 2 as const),
      side: fc.constantFrom(0 as const, 1 as const),
      offset: fc.integer({ min: -15, max: 15 }),
      steps: fc.integer({ min: 150, max: 3_000 }),
      tif: fc.constantFrom(0 as const, 0 as const, 1 as const, 2 as const, 3 as const),
      orderType: fc.constantFrom(1 as const, 1 as const, 0 as const),
      reduceOnly: fc.constantFrom(false, false, false, true),
      stp: fc.constantFrom(0 as const, 1 as const, 2 as const),
      ttl: fc.integer({ min: 1, max: 5 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(ACCOUNTS.length - 1), pick: fc.nat(50) }),
  },
  {
    weight: 1,
    // Marks off the tick grid too (any wei), so every order's own rounding matters.
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      marketId: fc.constantFrom(1 as const, 2 as const),
      priceWei: fc.bigInt({ min: 1_000n * 10n ** 18n, max: 90_000n * 10n ** 18n }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 4_000 }) }) },
);

function world() {
  const specs = compileMarkets(DEFAULT_MARKETS);
  const spec = (id: number): MarketSpec => specs.get(id)!;
  const marks = new Map<number, bigint>(
    [...specs.values()].map((m) => [m.marketId, BigInt(MIDS[m.marketId] ?? 1) * m.tickWei]),
  );
  const store = new OrderStore(specs.keys(), 100);
  const ledger = new AccountLedger(
    {
      market: spec,
      markWei: (id) => marks.get(id)!,
      marginNotionals: (account, marketId) => store.marginNotionals(account, spec(marketId), marks.get(marketId)!),
    },
    10,
  );
  const entry = new OrderEntry({
    store,
    ledger,
    market: spec,
    makerFeeBps: 2n,
    takerFeeBps: 5n,
    onTrade: () => {},
    ids: COUNTING_FROM_ONE,
  });
  // Small deposits so margin refusals happen too.
  ACCOUNTS.forEach((account, i) => ledger.deposit(account, BigInt(200 + 400 * i) * 10n ** 18n));
  return { spec, marks, store, ledger, entry };
}

function checkSums(w: ReturnType<typeof world>): void {
  for (const account of ACCOUNTS) {
    for (const marketId of [1, 2]) {
      const market = w.spec(marketId);
      const mark = w.marks.get(marketId)!;
      const orders = w.store.openOrdersIn(account, marketId);
      expect(w.store.marginNotionals(account, market, mark)).toEqual(sideNotionalsWei(market, mark, orders));
      const position = w.ledger.position(account, marketId);
      expect(w.ledger.marketMarginWei(account, marketId)).toBe(
        marketInitialMarginWei(market, position.sizeSteps, mark, orders, position.leverage),
      );
    }
  }
}

function run(w: ReturnType<typeof world>, ops: readonly Op[]): { placed: number; refused: number; filled: number } {
  let now = T0;
  const tally = { placed: 0, refused: 0, filled: 0 };
  for (const op of ops) {
    const events = new EventCollector();
    if (op.kind === 'place') {
      const params = {
        market_id: op.marketId,
        size_steps: op.steps,
        price_ticks: (MIDS[op.marketId] ?? 0) + op.offset * 100,
        side: op.side,
        post_only: false,
        reduce_only: op.reduceOnly,
        stp_mode: op.stp,
        order_type: op.orderType,
        time_in_force: op.orderType === 0 ? 3 : op.tif,
        ...(op.tif === 1 && op.orderType === 1 ? { ttl_units: op.ttl } : {}),
      };
      try {
        w.entry.place(ACCOUNTS[op.who]!, checkPlaceOrder(w.spec(op.marketId), params), now, events);
        tally.placed += 1;
      } catch (error) {
        if (!isExchangeRefusal(error)) throw error;
        tally.refused += 1;
      }
    } else if (op.kind === 'cancel') {
      const open = w.store.openOrders(ACCOUNTS[op.who]!);
      const order = open[op.pick % Math.max(1, open.length)];
      if (order !== undefined) w.entry.cancel(order, events);
    } else if (op.kind === 'mark') {
      w.marks.set(op.marketId, op.priceWei);
    } else {
      now += op.ms;
      for (const marketId of [1, 2]) w.entry.expireDue(marketId, now, events);
    }
    tally.filled += events.events.filter((e) => e.type === 'trade').length;
    checkSums(w);
  }
  return tally;
}

describe('incremental margin side sums', () => {
  it('equal a full recomputation after any sequence of place, fill, cancel, expiry and mark moves', () => {
    const totals = { placed: 0, refused: 0, filled: 0 };
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 80 }), (ops) => {
        const tally = run(world(), ops);
        totals.placed += tally.placed;
        totals.refused += tally.refused;
        totals.filled += tally.filled;
      }),
      { numRuns: 100 },
    );
    // The sequences really exercised fills and margin refusals, not only resting orders.
    expect(totals.filled).toBeGreaterThan(30);
    expect(totals.refused).toBeGreaterThan(10);
  });

  it('keep an account with hundreds of resting orders exact while makers take parts of them', () => {
    const w = world();
    const ops: Op[] = [];
    for (let i = 0; i < 300; i++) {
      ops.push({
        kind: 'place',
        who: 2,
        marketId: 1,
        side: (i % 2) as 0 | 1,
        offset: i % 2 === 0 ? -1 - (i % 40) : 1 + (i % 40),
        steps: 150,
        tif: 0,
        orderType: 1,
        reduceOnly: false,
        stp: 0,
        ttl: 1,
      });
      if (i % 7 === 0)
        ops.push({
          kind: 'place',
          who: 1,
          marketId: 1,
          side: 1,
          offset: -10,
          steps: 200,
          tif: 3,
          orderType: 1,
          reduceOnly: false,
          stp: 0,
          ttl: 1,
        });
      if (i % 50 === 0)
        ops.push({ kind: 'mark', marketId: 1, priceWei: 64_990n * 10n ** 18n + BigInt(i) * 1_234_567n });
    }
    const tally = run(w, ops);
    expect(tally.filled).toBeGreaterThan(10);
    expect(w.store.openOrders(ACCOUNTS[2]!).length).toBeGreaterThan(100);
  });
});
