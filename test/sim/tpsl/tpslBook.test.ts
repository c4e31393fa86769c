import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import type { NewTpslOrder } from '../../../src/sim/tpsl/simTpslOrder.js';
import { tpslOrderWire } from '../../../src/sim/tpsl/simTpslOrder.js';
import { TpslBook } from '../../../src/sim/tpsl/tpslBook.js';
import { canonicalTpslOrderSchema } from '../../../src/venue/schemas/restTpslCanonical.js';
import { TPSL_STATUSES } from '../../../src/venue/schemas/tpslNames.js';

const A = '0x1111111111111111111111111111111111111111' as Address;
const B = '0x2222222222222222222222222222222222222222' as Address;
const ALL = new Set(TPSL_STATUSES);

function order(change: Partial<NewTpslOrder> = {}): NewTpslOrder {
  return {
    account: A,
    marketId: 1,
    side: 'SELL',
    size: '0.001',
    sizePercentBps: 0,
    stopType: 'STOP_LOSS',
    orderType: 'MARKET',
    stopPrice: '60000',
    stopPriceWei: 60_000n * 10n ** 18n,
    limitPrice: '0',
    limitTicks: 0,
    stopPriceOption: 'MARK_PRICE',
    tif: 'IOC',
    createdAtMs: 1_000,
    ...change,
  };
}

describe('TpslBook', () => {
  it('numbers orders from its base, remembers which signed request placed which, and keeps accounts apart', () => {
    const book = new TpslBook(41n);
    const first = book.place(order(), '0xaa');
    const second = book.place(order({ account: B }), '0xbb');
    expect([first.orderId, second.orderId]).toEqual(['tpsl-42', 'tpsl-43']);
    expect(first.status).toBe('TPSL_ORDER_STATUS_ACCEPTED');
    expect(book.placedBy('0xaa')).toBe('tpsl-42');
    expect(book.placedBy('0xcc')).toBeUndefined();
    expect(book.find(A, 'tpsl-43')).toBeUndefined();
    expect(book.find(B, 'tpsl-43')).toBe(second);
    expect([...book.active()]).toEqual([first, second]);
  });

  it('lists newest first, filtered by stop type (both with STOP_TYPE_NONE), status, market and time', () => {
    const book = new TpslBook(0n);
    const sl = book.place(order({ createdAtMs: 1 }), '1');
    const tp = book.place(order({ stopType: 'TAKE_PROFIT', createdAtMs: 2 }), '2');
    const eth = book.place(order({ marketId: 2, createdAtMs: 3 }), '3');
    eth.status = 'TPSL_ORDER_STATUS_CANCELLED';
    const ids = (filter: Parameters<TpslBook['list']>[1]) => book.list(A, filter).map((o) => o.orderId);
    expect(ids({ stopType: 'STOP_TYPE_NONE', statuses: ALL })).toEqual([eth.orderId, tp.orderId, sl.orderId]);
    expect(ids({ stopType: 'TAKE_PROFIT', statuses: ALL })).toEqual([tp.orderId]);
    expect(ids({ stopType: 'STOP_LOSS', statuses: new Set(['TPSL_ORDER_STATUS_ACCEPTED'] as const) })).toEqual([
      sl.orderId,
    ]);
    expect(ids({ stopType: 'STOP_TYPE_NONE', statuses: ALL, marketId: 2 })).toEqual([eth.orderId]);
    expect(ids({ stopType: 'STOP_TYPE_NONE', statuses: ALL, startNs: 2_000_000n, endNs: 2_000_000n })).toEqual([
      tp.orderId,
    ]);
    expect([...book.active()]).toEqual([sl, tp]);
    expect(book.activeCount(A)).toBe(2);
  });

  it('forgets the oldest finished orders past 1000 per account, never an active one', () => {
    const book = new TpslBook(0n);
    const kept = book.place(order(), 'active');
    for (let i = 0; i < 1005; i++) book.place(order(), `done-${i}`).status = 'TPSL_ORDER_STATUS_SUCCESS';
    book.place(order(), 'last');
    const orders = book.orders(A);
    expect(orders.filter((o) => o.status === 'TPSL_ORDER_STATUS_SUCCESS')).toHaveLength(1000);
    expect(orders[0]).toBe(kept);
  });

  it('sends the record in the venue’s exact shape: ns times, "" until known', () => {
    const book = new TpslBook(0n);
    const placed = book.place(order({ createdAtMs: 1_790_872_262_000 }), 'x');
    const wire = tpslOrderWire(placed);
    expect(canonicalTpslOrderSchema.safeParse(wire).error?.issues ?? []).toEqual([]);
    expect(wire).toMatchObject({
      created_at: '1790872262000000000',
      triggered_at: '0',
      triggered_price: '',
      market_id: '1',
      filled_size: '0',
    });
  });
});
