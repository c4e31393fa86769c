import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals } from '../../src/strategy/index.js';
import { strategyTest } from '../../src/testing/index.js';
import twap, { childPrice, nextSlice, sliceTarget, twapParams } from '../../strategies/twap.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const params = { side: 'buy', size: '0.12', limit_price: '65100', duration_ms: HOUR, slices: 60 } as const;

/** Room for 0.12 at 65,000 (the default profile allows 1,000 an order, 5,000 a position). */
const RISK = { max_order_notional: '10000', max_position_per_market: '20000' };

const BOOK = { bids: [['64990', '5']], asks: [['65010', '5']] } as const;

/** A started TWAP with a book around 65,000 (bid 64,990, ask 65,010). */
async function started(extra: Partial<Parameters<typeof strategyTest>[1]> = {}) {
  const t = await strategyTest(twap, { params, risk: RISK, ...extra });
  await t.book(1, BOOK);
  await t.mark(1, '65000');
  return t;
}

/**
 * The book's own orders are placed again: now behind the child resting at the same bid, so a
 * seller hitting the bid reaches the child first (on the simulator, as on the venue, the queue
 * at a price is time priority).
 */
async function requeueBook(t: Awaited<ReturnType<typeof started>>): Promise<void> {
  await t.book(1, BOOK);
}

describe('twap schedule (pure parts)', () => {
  const p = twapParams.parse(params);

  it('targets size × (k+1)/slices, rounded down to the step, the whole size at the last slice', () => {
    expect(sliceTarget(p, 0, '0.001')).toBe('0.002');
    expect(sliceTarget(p, 29, '0.001')).toBe('0.06');
    expect(sliceTarget(twapParams.parse({ ...params, size: '0.01', slices: 3 }), 0, '0.001')).toBe('0.003');
    expect(sliceTarget(twapParams.parse({ ...params, size: '0.01', slices: 3 }), 2, '0.001')).toBe('0.01');
  });

  it('resumes at the next slice due, folding missed ones into it', () => {
    expect(nextSlice(p, 0, 0)).toBe(0);
    expect(nextSlice(p, 0, MINUTE)).toBe(1);
    expect(nextSlice(p, 0, MINUTE + 1)).toBe(2);
    expect(nextSlice(p, 0, 2 * HOUR)).toBe(60);
  });

  it('prices the child at the touch, never worse than the limit, on the tick', () => {
    expect(childPrice('buy', { marketId: 1, bestBid: { price: '64990', quantity: '1' } }, '65100', '0.1')).toBe(
      '64990',
    );
    expect(childPrice('buy', { marketId: 1, bestBid: { price: '65200', quantity: '1' } }, '65100', '0.1')).toBe(
      '65100',
    );
    expect(childPrice('sell', { marketId: 1, bestAsk: { price: '64000.05', quantity: '1' } }, '63000', '0.1')).toBe(
      '64000.1',
    );
    expect(childPrice('sell', undefined, '63000', '0.1')).toBe('63000');
  });
});

describe('twap executor in virtual time', () => {
  it('runs a 60-minute schedule in virtual time: 60 post-only slices at the touch, then the remainder at market, then done', async () => {
    const t = await started();
    // Half of each child fills from a seller hitting the bid a few seconds into every minute.
    for (let minute = 0; minute < 60; minute++) {
      await t.advance(5_000);
      await requeueBook(t);
      await t.trade(1, { price: '64990', size: '0.001', aggressorSide: 'sell' });
      await t.advance(MINUTE - 5_000);
    }
    await t.advance(1);

    const children = t.intentsOf('placeLimit');
    expect(children).toHaveLength(60);
    expect(children.every((c) => c.postOnly && c.side === 'buy' && c.price === '64990')).toBe(true);
    // Each slice asks for what is missing of its target: 0.002 first, then 0.004 less the 0.001 filled.
    expect(children[0]?.size).toBe('0.002');
    expect(children[1]?.size).toBe('0.003');
    const market = t.intentsOf('placeMarket');
    expect(market).toHaveLength(1);
    const filled = t.orderEvents
      .filter((e) => e.type === 'partially_filled' || e.type === 'filled')
      .reduce((sum, e) => addDecimals(sum, 'lastFillSize' in e ? e.lastFillSize : '0'), '0');
    expect(filled).toBe('0.12');
    expect(market[0]?.size).toBe('0.06');
    expect(t.status).toBe('done');
    expect(t.state.position(1)?.signedSize).toBe('0.12');
    expect(t.storage.get('twap-1')).toMatchObject({ filled: '0.12', finished: true });
  });

  it('cancels the resting child and waits for its end before placing the next slice', async () => {
    const t = await started();
    await t.advance(MINUTE);
    const kinds = t.intents.map((i) =>
      i.kind === 'cancel' ? `cancel:${'intentId' in i.target ? i.target.intentId : ''}` : `${i.kind}:${i.intentId}`,
    );
    expect(kinds).toEqual(['placeLimit:twap-test-1', 'cancel:twap-test-1', 'placeLimit:twap-test-3']);
    expect(t.orderEvents.filter((e) => e.intentId === 'twap-test-1').map((e) => e.type)).toEqual([
      'queued',
      'submitted',
      'placed',
      'cancelled',
    ]);
    expect(t.intentsOf('placeLimit')[1]?.size).toBe('0.004');
  });

  it('ends without a market order when the market is beyond the limit price', async () => {
    const t = await started({ params: { ...params, duration_ms: 10 * MINUTE, slices: 10 } });
    await t.advance(9 * MINUTE);
    await t.book(1, { bids: [['65190', '5']], asks: [['65200', '5']] });
    await t.advance(MINUTE);
    expect(t.intentsOf('placeMarket')).toHaveLength(0);
    expect(t.status).toBe('done');
    expect(t.logs.some((l) => l.msg === 'twap ends with a remainder: the market is beyond the limit price')).toBe(true);
  });

  it('iceberg: a child shows at most max_visible and a filled piece is replaced at once', async () => {
    const t = await started({ params: { ...params, size: '0.6', max_visible: '0.004' } });
    const first = t.intentsOf('placeLimit')[0]!;
    expect(first.size).toBe('0.004');
    await t.fill(first.intentId);
    const second = t.intentsOf('placeLimit')[1]!;
    expect(second.size).toBe('0.004');
    await t.fill(second.intentId, '0.002');
    expect(t.intentsOf('placeLimit')).toHaveLength(2);
    await t.fill(second.intentId);
    // 0.008 of the first slice's 0.01 filled: the last piece is the 0.002 left.
    expect(t.intentsOf('placeLimit')[2]?.size).toBe('0.002');
  });

  it('its resting child is cancelled when it stops (by the framework, before onStop)', async () => {
    const t = await started();
    const child = t.intentsOf('placeLimit')[0]!;
    await t.stop();
    // onStop found the child already cancelled: it had nothing left to cancel itself.
    expect(t.intentsOf('cancel')).toEqual([]);
    expect(t.venueOrders(1)).toEqual([]);
    expect(t.orderEvents.at(-1)).toMatchObject({ intentId: child.intentId, type: 'cancelled', requested: true });
    expect(t.status).toBe('stopped');
  });

  it('resumes its schedule from storage after a restart, never exceeding the total', async () => {
    const first = await started();
    for (let i = 0; i < 30; i++) {
      const child = first.intentsOf('placeLimit').at(-1)!;
      await requeueBook(first);
      await first.fill(child.intentId, '0.001');
      await first.advance(MINUTE);
    }
    const saved = first.storage;
    expect(saved.get('twap-1')).toMatchObject({ filled: '0.03' });
    // Down for 10 minutes; the resting child is gone (it filled while down).
    const second = await started({ storage: saved, startMs: first.time.now() + 10 * MINUTE });
    expect(second.logs.some((l) => l.msg === 'twap resumed')).toBe(true);
    const resumed = second.storage.get('twap-1') as { filled: string; startMs: number };
    expect(resumed.startMs).toBe((saved.get('twap-1') as { startMs: number }).startMs);
    const childLeft = (saved.get('twap-1') as { child: { size: string; filled: string } }).child;
    expect(resumed.filled).toBe(addDecimals('0.03', addDecimals(childLeft.size, `-${childLeft.filled}`)));
    // The next slice is the one due at minute 40: its target is 0.082.
    await second.advance(0);
    await second.advance(MINUTE);
    const next = second.intentsOf('placeLimit')[0]!;
    expect(compareDecimals(addDecimals(resumed.filled, next.size), '0.082')).toBe(0);
  });
});
