import { describe, expect, it } from 'vitest';
import { placeLimit, placeMarket, cancel, cancelAll, closePosition } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import { PaperOrderEvents, type OrderUpdate } from '../../src/testing/paperOrderEvents.js';
import type { OrderEvent } from '../../src/strategy/orderEvents.js';

function lifecycle(position?: { side: 'buy' | 'sell'; size: string }) {
  let now = 1_000;
  const events: OrderEvent[] = [];
  const life = new PaperOrderEvents({ now: () => now++, position: () => position });
  life.events$.subscribe((e) => events.push(e));
  return { life, events, types: () => events.map((e) => `${e.intentId}:${e.type}`) };
}

const limit = placeLimit({ intentId: 'a', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });
const order = (state: OrderUpdate['state'], filledSize: string, extra: Partial<OrderUpdate> = {}): OrderUpdate => ({
  intentId: 'a',
  strategy: 's',
  marketId: 1,
  side: 'buy',
  size: '1',
  price: '100',
  state,
  filledSize,
  orderId: '0xa',
  ...extra,
});
const outcome = (
  type: 'accepted' | 'unknown',
  intentId = 'a',
  kind: IntentOutcome['kind'] = 'placeLimit',
): IntentOutcome =>
  type === 'accepted'
    ? { type, intentId, strategy: 's', kind, marketId: 1, atMs: 0, orderId: '0xa' }
    : { type, intentId, strategy: 's', kind, marketId: 1, atMs: 0, reason: 'timeout' };

describe('per-order lifecycle events', () => {
  it('placed, partially filled with what is left, then filled, in order and once each', () => {
    const { life, events, types } = lifecycle();
    life.onIntent(limit);
    life.onOrder(order('pending', '0'));
    life.onOrder(order('open', '0'));
    life.onOutcome(outcome('accepted'));
    life.onOrder(order('partially_filled', '0.25'));
    life.onOrder(order('partially_filled', '0.25'));
    life.onOrder(order('partially_filled', '0.75'));
    life.onOrder(order('filled', '1'));
    life.onOrder(order('cancelled', '1'));
    expect(types()).toEqual(['a:placed', 'a:partially_filled', 'a:partially_filled', 'a:filled']);
    expect(events.map((e) => [e.filledSize, e.remainingSize])).toEqual([
      ['0', '1'],
      ['0.25', '0.75'],
      ['0.75', '0.25'],
      ['1', '0'],
    ]);
    expect(events[1]).toMatchObject({ lastFillSize: '0.25', orderId: '0xa', price: '100', side: 'buy', size: '1' });
    expect(events[3]).toMatchObject({ lastFillSize: '0.25' });
    expect(events.map((e) => e.atMs)).toEqual([...events.map((e) => e.atMs)].sort());
    expect(life.openCount).toBe(0);
  });

  it("delivers placed first when a market order's fills arrive before its accepted answer", () => {
    const { life, events, types } = lifecycle();
    life.onIntent(placeMarket({ intentId: 'm', strategy: 's', marketId: 1, side: 'sell', size: '2' }));
    life.onOrder(order('filled', '2', { intentId: 'm', side: 'sell', size: '2' }));
    life.onOutcome(outcome('accepted', 'm', 'placeMarket'));
    expect(types()).toEqual(['m:placed', 'm:filled']);
    expect(events[0]).not.toHaveProperty('price');
  });

  it('cancelled when a cancel of ours asked for it (by intent or order id, or cancel-all)', () => {
    const { life, events, types } = lifecycle();
    life.onIntent(limit);
    life.onIntent(placeLimit({ intentId: 'b', strategy: 's', marketId: 1, side: 'sell', size: '1', price: '101' }));
    life.onIntent(placeLimit({ intentId: 'c', strategy: 's', marketId: 1, side: 'sell', size: '1', price: '102' }));
    for (const id of ['a', 'b', 'c']) life.onOrder(order('open', '0', { intentId: id, orderId: `0x${id}` }));
    life.onIntent(cancel({ intentId: 'x', strategy: 's', marketId: 1, target: { intentId: 'a' } }));
    life.onIntent(cancel({ intentId: 'y', strategy: 's', marketId: 1, target: { orderId: '0xB' } }));
    life.onOrder(order('partially_filled', '0.5', { intentId: 'a' }));
    for (const id of ['a', 'b'])
      life.onOrder(order('cancelled', id === 'a' ? '0.5' : '0', { intentId: id, orderId: `0x${id}` }));
    // c was not asked to go: cancelled by the venue or another client.
    life.onOrder(order('cancelled', '0', { intentId: 'c', orderId: '0xc' }));
    expect(types()).toEqual([
      'a:placed',
      'b:placed',
      'c:placed',
      'a:partially_filled',
      'a:cancelled',
      'b:cancelled',
      'c:cancelled',
    ]);
    expect(
      events.filter((e) => e.type === 'cancelled').map((e) => ('requested' in e ? e.requested : undefined)),
    ).toEqual([true, true, false]);
    expect(events[4]).toMatchObject({ filledSize: '0.5', remainingSize: '0.5' });
    const all = lifecycle();
    all.life.onIntent(limit);
    all.life.onOrder(order('open', '0'));
    all.life.onIntent(cancelAll({ intentId: 'z', strategy: 's', marketId: 1 }));
    all.life.onOrder(order('cancelled', '0'));
    expect(all.events.at(-1)).toMatchObject({ type: 'cancelled', requested: true });
  });

  it('expired when IOC, market or GTT orders end by their time in force without a cancel of ours', () => {
    const { life, events, types } = lifecycle();
    life.onIntent(
      placeLimit({
        intentId: 'ioc',
        strategy: 's',
        marketId: 1,
        side: 'buy',
        size: '1',
        price: '100',
        timeInForce: 'IOC',
      }),
    );
    life.onOrder(order('partially_filled', '0.4', { intentId: 'ioc' }));
    life.onOrder(order('cancelled', '0.4', { intentId: 'ioc' }));
    life.onIntent(
      placeLimit({
        intentId: 'gtt',
        strategy: 's',
        marketId: 1,
        side: 'buy',
        size: '1',
        price: '100',
        timeInForce: 'GTT',
        ttlUnits: 5,
      }),
    );
    life.onOrder(order('open', '0', { intentId: 'gtt' }));
    life.onOrder(order('cancelled', '0', { intentId: 'gtt' }));
    expect(types()).toEqual(['ioc:placed', 'ioc:partially_filled', 'ioc:expired', 'gtt:placed', 'gtt:expired']);
    expect(events[2]).toMatchObject({ filledSize: '0.4', remainingSize: '0.6' });
  });

  it('rejected, never placed, when refused locally or failed at the venue; an unknown outcome waits', () => {
    const { life, events, types } = lifecycle({ side: 'buy', size: '0.3' });
    life.onIntent(limit);
    life.onOutcome({
      type: 'refused',
      intentId: 'a',
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 0,
      rejection: { rule: 'min_order_size', value: '1', reason: 'too small', hints: [] },
    });
    life.onIntent(closePosition({ intentId: 'close', strategy: 's', marketId: 1 }));
    life.onOutcome({
      type: 'failed',
      intentId: 'close',
      strategy: 's',
      kind: 'closePosition',
      marketId: 1,
      atMs: 0,
      error: { code: 'VENUE_POST_ONLY_WOULD_CROSS', message: 'would cross', hints: [] },
    });
    life.onIntent(placeLimit({ intentId: 'u', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' }));
    life.onOutcome(outcome('unknown', 'u'));
    expect(types()).toEqual(['a:rejected', 'close:rejected']);
    expect(events[0]).toMatchObject({ code: 'min_order_size', by: 'refused', reason: 'too small' });
    // A close's side and size are those of the position it closes.
    expect(events[1]).toMatchObject({ side: 'sell', size: '0.3', code: 'VENUE_POST_ONLY_WOULD_CROSS', by: 'failed' });
    life.onOrder(order('open', '0', { intentId: 'u' }));
    expect(types()).toEqual(['a:rejected', 'close:rejected', 'u:placed']);
    // Late reports of a finished order start nothing.
    life.onOrder(order('open', '0'));
    expect(events).toHaveLength(3);
  });

  it('an order restored from an earlier run starts its life at what it shows now, without its past fills', () => {
    const { life, events } = lifecycle();
    life.onOrder(order('partially_filled', '0.5', { intentId: 'old' }));
    life.onOrder(order('partially_filled', '0.7', { intentId: 'old' }));
    life.onOrder(order('cancelled', '0.7', { intentId: 'old' }));
    expect(events.map((e) => [e.type, e.filledSize, 'lastFillSize' in e ? e.lastFillSize : '-'])).toEqual([
      ['placed', '0.5', '-'],
      ['partially_filled', '0.7', '0.2'],
      ['cancelled', '0.7', '-'],
    ]);
  });
});

describe('per-order lifecycle with malformed intents', () => {
  it('reports a refused intent whose size is not a decimal, without throwing', () => {
    const { life, events } = lifecycle();
    life.onIntent(placeLimit({ intentId: 'bad', strategy: 's', marketId: 1, side: 'buy', size: 'abc', price: '100' }));
    life.onOutcome({
      type: 'refused',
      intentId: 'bad',
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 0,
      rejection: { rule: 'size', value: 'abc', reason: 'not a decimal', hints: [] },
    });
    expect(events).toEqual([
      expect.objectContaining({ type: 'rejected', size: 'abc', remainingSize: 'abc', code: 'size' }),
    ]);
  });
});
