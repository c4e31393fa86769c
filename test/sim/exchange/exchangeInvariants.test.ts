import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import { decimalToWei } from '../../../src/core/decimal.js';
import type { Exchange } from '../../../src/sim/exchange/exchange.js';
import { isExchangeRefusal } from '../../../src/sim/exchange/exchangeRefusal.js';
import { ALICE, BOB, CAROL, T0, limit, ofType, quietExchange } from './exchangeFixture.js';

const ACCOUNTS = [ALICE, BOB, CAROL] as const;

type Op =
  | {
      kind: 'place';
      who: number;
      side: 0 | 1;
      offset: number;
      steps: number;
      orderType: 0 | 1;
      tif: number;
      stp: number;
      postOnly: boolean;
      reduceOnly: boolean;
    }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'block' }
  | { kind: 'mark'; offset: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    // Mostly valid orders, so the sequences trade; rare flags keep the refusals exercised too.
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      who: fc.integer({ min: 0, max: 2 }),
      side: fc.constantFrom(0 as const, 1 as const),
      offset: fc.integer({ min: -20, max: 20 }),
      steps: fc.integer({ min: 15, max: 80 }),
      orderType: fc.constantFrom(0 as const, 1 as const, 1 as const),
      tif: fc.constantFrom(0, 0, 1, 2, 3, 3),
      stp: fc.integer({ min: 0, max: 2 }),
      postOnly: fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
      reduceOnly: fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('block' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('mark' as const), offset: fc.integer({ min: -50, max: 50 }) }),
  },
);

function checkInvariants(ex: Exchange, feesWei: bigint, depositedWei: bigint): void {
  const book = ex.book(1);
  const bestBid = book.bids[0];
  const bestAsk = book.asks[0];
  if (bestBid !== undefined && bestAsk !== undefined) {
    expect(decimalToWei(bestBid.price, 'bid') < decimalToWei(bestAsk.price, 'ask')).toBe(true);
  }
  // Every trade has two sides: positions net to zero.
  const net = ACCOUNTS.reduce((sum, a) => sum + BigInt(ex.position(a, 1).size_steps), 0n);
  expect(net).toBe(0n);
  // The book is exactly the open orders.
  const restingSteps = new Map<string, bigint>();
  for (const account of ACCOUNTS) {
    for (const order of ex.openOrders(account)) {
      expect(order.status).toBe('ORDER_STATUS_OPEN');
      expect(order.filled_steps).toBeGreaterThanOrEqual(0);
      expect(order.filled_steps).toBeLessThan(order.size_steps);
      const price = (BigInt(order.price_ticks) * 10n ** 17n).toString();
      restingSteps.set(price, (restingSteps.get(price) ?? 0n) + BigInt(order.size_steps - order.filled_steps));
    }
  }
  const levels = [...book.bids, ...book.asks];
  expect(levels.length).toBe(restingSteps.size);
  for (const level of levels) {
    expect(decimalToWei(level.quantity, 'q') / 10n ** 13n).toBe(
      restingSteps.get(decimalToWei(level.price, 'p').toString()),
    );
  }
  // Money is conserved: balances hold deposits plus realised PnL minus fees.
  let held = 0n;
  let realized = 0n;
  for (const account of ACCOUNTS) {
    held += decimalToWei(ex.balance(account).balance, 'balance');
    const position = ex.position(account, 1);
    held += decimalToWei(position.isolated_usdc_balance, 'isolated');
    realized += decimalToWei(position.realized_pnl, 'realized');
  }
  expect(held).toBe(depositedWei + realized - feesWei);
}

describe('exchange invariants under random operation sequences', () => {
  it.each([
    { name: 'well funded', deposit: '10000', liquidation: false, markStep: 1 },
    { name: 'thinly funded, big mark moves, liquidation on', deposit: '8', liquidation: true, markStep: 200 },
  ])(
    '$name: the book stays uncrossed and equal to the open orders, positions net to zero, money is conserved',
    ({ deposit, liquidation, markStep }) => {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 30, maxLength: 120 }), (ops) => {
          const ex = quietExchange({ liquidation }, []);
          for (const account of ACCOUNTS) ex.deposit(account, deposit);
          const deposited = 3n * decimalToWei(deposit, 'deposit');
          let block = 0;
          let now = T0;
          let fees = 0n;
          for (const op of ops) {
            now += 500;
            try {
              if (op.kind === 'place') {
                // Market orders mostly get a valid time in force (FOK or IOC).
                const tif = op.orderType === 0 && op.tif < 2 && op.stp !== 2 ? op.tif + 2 : op.tif;
                const params = limit(op.side, 650_000 + op.offset, op.steps, {
                  order_type: op.orderType,
                  time_in_force: tif,
                  stp_mode: op.stp,
                  post_only: op.postOnly,
                  reduce_only: op.reduceOnly,
                  ...(tif === 1 ? { ttl_units: 2 } : {}),
                });
                const result = ex.placeOrder(ACCOUNTS[op.who] as Address, params, now);
                for (const fill of ofType(result.events, 'fill')) fees += decimalToWei(fill.fill.fee, 'fee');
                expect(result.order.filled_steps).toBeLessThanOrEqual(result.order.size_steps);
                expect(result.order.size_steps).toBeLessThanOrEqual(op.steps);
              } else if (op.kind === 'cancel') {
                const open = ex.openOrders(ACCOUNTS[op.who] as Address, 1);
                const target = open[op.pick % Math.max(1, open.length)];
                if (target !== undefined)
                  ex.cancelOrder(ACCOUNTS[op.who] as Address, 1, BigInt(target.resting_order_id));
              } else if (op.kind === 'block') {
                // Liquidations trade too: their fees count.
                for (const fill of ofType(ex.advanceBlock(++block, now).events, 'fill'))
                  fees += decimalToWei(fill.fill.fee, 'fee');
              } else {
                ex.setMark(1, String(65_000 + op.offset * markStep));
                // With liquidation on, let a block follow each move so pools get tested at once.
                if (liquidation)
                  for (const fill of ofType(ex.advanceBlock(++block, now).events, 'fill'))
                    fees += decimalToWei(fill.fill.fee, 'fee');
              }
            } catch (error) {
              if (!isExchangeRefusal(error)) throw error;
            }
            checkInvariants(ex, fees, deposited);
          }
        }),
        // Unbiased: fast-check's bias toward first and small values would make nearly every order a buy.
        { seed: 4242, numRuns: 40, unbiased: true },
      );
    },
  );
});
