import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import { AllowanceBook } from '../../../src/sim/chain/allowanceBook.js';
import type { Exchange } from '../../../src/sim/exchange/exchange.js';
import type { ExchangeEvent } from '../../../src/sim/exchange/exchangeEvents.js';
import type { BlockStamp } from '../../../src/sim/simContext.js';
import type { NewTpslOrder } from '../../../src/sim/tpsl/simTpslOrder.js';
import { TpslBook } from '../../../src/sim/tpsl/tpslBook.js';
import { TpslWatcher } from '../../../src/sim/tpsl/tpslWatcher.js';
import { ALICE, BOB, CAROL, limit, market, ofType, quietExchange, T0 } from '../exchange/exchangeFixture.js';

/**
 * The TP/SL watcher over the real exchange core (no synthetic makers, so every price is placed by
 * the test): what fires it, when it executes, what it sends as the account's order.
 */
const HUB = '0x00000000000000000000000000000000000000b0' as Address;
const WEI = 10n ** 18n;

interface Rig {
  readonly exchange: Exchange;
  readonly book: TpslBook;
  readonly allowances: AllowanceBook;
  readonly watcher: TpslWatcher;
  readonly recorded: (readonly ExchangeEvent[])[];
  block(atMs: number): void;
}

/** Alice long 100 steps at 65000 (Bob sold to her); Bob and Carol quote around it. */
function rig(lagMs = 1_000): Rig {
  const exchange = quietExchange();
  exchange.placeOrder(BOB, limit(1, 650_000, 100), T0);
  exchange.placeOrder(ALICE, market(0, 650_000, 100), T0);
  const book = new TpslBook(0n);
  const allowances = new AllowanceBook();
  allowances.grant(ALICE, { operator: HUB, budgetWei: 1_000_000n * WEI, expiry: T0 / 1000 + 3600 });
  const recorded: (readonly ExchangeEvent[])[] = [];
  let n = 0;
  const watcher = new TpslWatcher({
    book,
    exchange,
    allowances,
    operatorHub: HUB,
    lagMs: () => lagMs,
    record: (events): BlockStamp => {
      recorded.push(events);
      n += 1;
      return { blockNumber: n, timestampMs: T0, txHash: `0x${n.toString(16).padStart(64, '0')}` };
    },
  });
  let head = 0;
  return {
    exchange,
    book,
    allowances,
    watcher,
    recorded,
    block: (atMs) => {
      head += 1;
      exchange.advanceBlock(head, atMs);
      watcher.onBlock({ blockNumber: head, timestampMs: atMs, txHash: `0x${'b'.repeat(63)}${head % 10}` });
    },
  };
}

function order(change: Partial<NewTpslOrder> = {}): NewTpslOrder {
  return {
    account: ALICE,
    marketId: 1,
    side: 'SELL',
    size: '0.001',
    sizePercentBps: 0,
    stopType: 'STOP_LOSS',
    orderType: 'MARKET',
    stopPrice: '60000',
    stopPriceWei: 60_000n * WEI,
    limitPrice: '0',
    limitTicks: 0,
    stopPriceOption: 'MARK_PRICE',
    tif: 'IOC',
    createdAtMs: T0,
    ...change,
  };
}

const position = (r: Rig) => r.exchange.position(ALICE, 1).size_steps;

describe('TpslWatcher', () => {
  it('fires on the last trade when told to, though the mark has not moved, and executes after the lag', () => {
    const r = rig();
    const onLast = r.book.place(order({ stopPriceOption: 'LAST_TRADED_PRICE' }), 'a');
    const onMark = r.book.place(order(), 'b');
    // A trade at 59000 between Carol and Bob: the last price falls under the stop, the mark stays.
    r.exchange.placeOrder(CAROL, limit(0, 590_000, 20), T0);
    r.exchange.placeOrder(BOB, market(1, 590_000, 20), T0);
    r.exchange.placeOrder(CAROL, limit(0, 589_000, 500), T0);
    r.block(T0 + 100);
    expect(onLast).toMatchObject({ status: 'TPSL_ORDER_STATUS_TRIGGERED', triggeredPrice: '59000' });
    expect(onMark.status).toBe('TPSL_ORDER_STATUS_ACCEPTED');
    r.block(T0 + 1_099);
    expect(onLast.status).toBe('TPSL_ORDER_STATUS_TRIGGERED');
    r.block(T0 + 1_100);
    expect(onLast).toMatchObject({ status: 'TPSL_ORDER_STATUS_SUCCESS', filledSize: '0.001' });
    expect(position(r)).toBe('0');
    // One transaction: Alice's reduce-only market sell, with its fill against Carol's bid.
    const [events] = r.recorded;
    const sent = ofType(events ?? [], 'order').find((e) => e.account === ALICE)?.order;
    expect(sent).toMatchObject({ side: 1, reduce_only: true, order_type: 0, time_in_force: 3 });
    expect(ofType(events ?? [], 'fill').some((e) => e.account === ALICE)).toBe(true);
    // Its fills spent the budget by their notional: 0.001 × 58900.
    expect(r.allowances.get(ALICE)?.budgetWei).toBe(1_000_000n * WEI - 589n * 10n ** 17n);
    // Nothing left to reduce: the mark-watching one cancels when it fires later.
    r.exchange.setMark(1, '55000');
    r.block(T0 + 5_000);
    r.block(T0 + 6_000);
    expect(onMark).toMatchObject({
      status: 'TPSL_ORDER_STATUS_CANCELLED',
      refusal: 'nothing to reduce: no long position',
    });
  });

  it('between blocks: judged at the time given, a trigger stamped as its own transaction, nothing stamped while nothing fires', () => {
    const r = rig(500);
    const sl = r.book.place(order(), 'a');
    r.exchange.placeOrder(CAROL, limit(0, 590_000, 500), T0);
    let stamps = 0;
    const stamp = (): BlockStamp => {
      stamps += 1;
      return { blockNumber: 7, timestampMs: T0 + 250, txHash: `0x${'c'.repeat(64)}` };
    };
    r.watcher.between(T0 + 200, stamp);
    expect(stamps).toBe(0);
    r.exchange.setMark(1, '59500');
    r.watcher.between(T0 + 250, stamp);
    expect(stamps).toBe(1);
    expect(sl).toMatchObject({
      status: 'TPSL_ORDER_STATUS_TRIGGERED',
      triggeredAtMs: T0 + 250,
      triggeredPrice: '59500',
      triggerTxHash: `0x${'c'.repeat(64)}`,
    });
    // The lag runs from the trigger's time, whatever the next block's.
    r.watcher.between(T0 + 749, stamp);
    expect(sl.status).toBe('TPSL_ORDER_STATUS_TRIGGERED');
    r.watcher.between(T0 + 750, stamp);
    expect(sl).toMatchObject({ status: 'TPSL_ORDER_STATUS_SUCCESS', filledSize: '0.001' });
    expect(position(r)).toBe('0');
    expect(stamps).toBe(1);
  });

  it('executes a share of the position (size_percent_bps), and a LIMIT as a resting reduce-only limit order', () => {
    const r = rig(0);
    const half = r.book.place(
      order({
        size: '0',
        sizePercentBps: 5_000,
        stopType: 'TAKE_PROFIT',
        stopPrice: '70000',
        stopPriceWei: 70_000n * WEI,
      }),
      'a',
    );
    r.exchange.placeOrder(CAROL, limit(0, 700_000, 500), T0);
    r.exchange.setMark(1, '71000');
    r.block(T0 + 100);
    expect(half.status).toBe('TPSL_ORDER_STATUS_SUCCESS');
    expect(position(r)).toBe('50');
    const rest = r.book.place(
      order({
        stopType: 'TAKE_PROFIT',
        stopPrice: '70000',
        stopPriceWei: 70_000n * WEI,
        orderType: 'LIMIT',
        limitPrice: '80000',
        limitTicks: 800_000,
        tif: 'GTC',
      }),
      'b',
    );
    r.block(T0 + 200);
    expect(rest).toMatchObject({ status: 'TPSL_ORDER_STATUS_SUCCESS', filledSize: '0' });
    expect(r.exchange.openOrders(ALICE, 1)).toEqual([
      expect.objectContaining({ side: 1, price_ticks: 800_000, reduce_only: true, size_steps: 50, time_in_force: 0 }),
    ]);
  });

  it('stays triggered, with the reason, while the budget is missing, short or expired, and executes once it is there', () => {
    const r = rig(0);
    r.exchange.placeOrder(CAROL, limit(0, 590_000, 500), T0);
    const sl = r.book.place(order(), 'a');
    r.allowances.grant(ALICE, { operator: HUB, budgetWei: 10n * WEI, expiry: T0 / 1000 + 3600 });
    r.exchange.setMark(1, '59000');
    r.block(T0 + 100);
    expect(sl).toMatchObject({
      status: 'TPSL_ORDER_STATUS_TRIGGERED',
      refusal: expect.stringMatching(/^AllowanceExhausted\(/),
    });
    r.allowances.grant(ALICE, { operator: HUB, budgetWei: 100n * WEI, expiry: T0 / 1000 + 1 });
    r.block(T0 + 1_000);
    expect(sl.refusal).toMatch(/^AllowanceExpired\(/);
    expect(position(r)).toBe('100');
    expect(r.recorded).toEqual([]);
    r.allowances.grant(ALICE, { operator: HUB, budgetWei: 100n * WEI, expiry: T0 / 1000 + 3600 });
    r.block(T0 + 2_000);
    expect(sl.status).toBe('TPSL_ORDER_STATUS_SUCCESS');
    expect(sl.refusal).toBeUndefined();
    expect(position(r)).toBe('0');
  });
});
