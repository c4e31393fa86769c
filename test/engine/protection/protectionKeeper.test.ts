import { describe, expect, it } from 'vitest';
import type { TpslOrder } from '../../../src/engine/orders/tpslOrder.js';
import { ASK_VENUE_AGAIN_MS } from '../../../src/engine/protection/tpslLegActions.js';
import { long, setup } from './keeperFixture.js';

describe('ProtectionKeeper: the venue TP/SL equal to the position', () => {
  it('places a stop of the position size, resizes it on a fill (placed first, then the old cancelled), and cancels it when flat', async () => {
    const t = setup();
    await t.keeper.sync();
    expect(t.venue.placed).toBe(0);
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    expect(t.venue.active().map((r) => [r.stop_type, r.side, r.size, r.stop_price])).toEqual([
      ['STOP_LOSS', 'SELL', '0.001', '63680'],
    ]);
    t.setPosition(long('0.003'));
    await t.keeper.sync();
    expect(t.venue.active().map((r) => r.size)).toEqual(['0.003']);
    expect(t.venue.cancels).toEqual(['tpsl-v1']);
    // Nothing changed: nothing sent.
    await t.keeper.sync(true);
    expect(t.venue.placed).toBe(2);
    t.setPosition(undefined);
    await t.keeper.sync();
    expect(t.venue.active()).toEqual([]);
    // Every version was journaled before it was acted on: the first write of each order is `placing`.
    const firsts = new Map<string, string>();
    for (const w of t.written) if (!firsts.has(w.id)) firsts.set(w.id, w.state);
    expect([...firsts.values()]).toEqual(['placing', 'placing']);
  });

  it("reads the venue's ended orders only back to its oldest live order (less a minute), every active one always", async () => {
    const t = setup();
    const start = t.clock.now();
    await t.keeper.sync(true);
    // Nothing live: the list's ended part starts a minute back.
    expect(t.venue.sinces.at(-1)).toBe(start - 60_000);
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    await t.clock.advance(3_600_000);
    await t.keeper.sync(true);
    // The stop placed an hour ago is still live: the read reaches back to it.
    expect(t.venue.sinces.at(-1)).toBe(start - 60_000);
    t.setPosition(undefined);
    // Flat: the stop's cancel is sent; the next read still reaches back to it (cancelling, not yet
    // ended) and sees it cancelled; the read after that no longer needs to.
    await t.keeper.sync(true);
    await t.keeper.sync(true);
    expect(t.venue.sinces.at(-1)).toBe(start - 60_000);
    await t.keeper.sync(true);
    expect(t.venue.sinces.at(-1)).toBe(t.clock.now() - 60_000);
  });

  it('a cancel that failed is sent again while the venue lists the order ACCEPTED, until it lands', async () => {
    const t = setup();
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    t.venue.failCancels = 1;
    t.setPosition(long('0.002'));
    await t.keeper.sync();
    // The resize placed the new stop; the old one's cancel failed: it stays on the venue meanwhile.
    expect(t.venue.cancels).toEqual(['tpsl-v1']);
    expect(t.venue.active().map((r) => r.order_id)).toEqual(['tpsl-v1', 'tpsl-v2']);
    await t.keeper.sync(true);
    expect(t.venue.cancels).toEqual(['tpsl-v1']);
    await t.clock.advance(2_000);
    await t.keeper.sync(true);
    expect(t.venue.cancels).toEqual(['tpsl-v1', 'tpsl-v1']);
    await t.keeper.sync(true);
    expect(t.venue.active().map((r) => r.order_id)).toEqual(['tpsl-v2']);
    expect(t.keeper.orders.all().map((o) => [o.venueId, o.state])).toEqual([
      ['tpsl-v1', 'cancelled'],
      ['tpsl-v2', 'accepted'],
    ]);
  });

  it('a flip replaces the SELL legs with BUY legs', async () => {
    const t = setup({ takeProfitBps: 100 });
    t.setPosition(long('0.002'));
    await t.keeper.sync();
    t.setPosition({ side: 'sell', size: '0.001', avgEntryPrice: '65000' });
    await t.keeper.sync();
    expect(
      t.venue
        .active()
        .map((r) => [r.stop_type, r.side, r.size, r.stop_price])
        .sort(),
    ).toEqual([
      ['STOP_LOSS', 'BUY', '0.001', '65325'],
      ['TAKE_PROFIT', 'BUY', '0.001', '64350'],
    ]);
  });

  it('when the take-profit executes, cancels the stop-loss (one cancels the other)', async () => {
    const t = setup({ takeProfitBps: 100 });
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    const tp = t.venue.active().find((r) => r.stop_type === 'TAKE_PROFIT');
    t.venue.set(tp?.order_id ?? '', 'TPSL_ORDER_STATUS_SUCCESS', { filled_size: '0.001', triggered_tx_hash: '0xfeed' });
    await t.keeper.sync(true);
    expect(t.venue.active()).toEqual([]);
    const executed = t.keeper.orders.all().find((o) => o.role === 'take_profit');
    expect(executed).toMatchObject({ state: 'executed', filledSize: '0.001', executionTx: '0xfeed' });
    // Cancel sent; the next read of the list confirms it.
    expect(t.keeper.orders.all().find((o) => o.role === 'stop_loss')?.state).toBe('cancelling');
    await t.keeper.sync(true);
    expect(t.keeper.orders.all().find((o) => o.role === 'stop_loss')?.state).toBe('cancelled');
    expect(t.venue.placed).toBe(2);
  });

  it('after a restart adopts a placement whose answer was lost, instead of placing it again', async () => {
    const t = setup();
    await t.venue.place({
      marketId: 1,
      side: 'SELL',
      size: '0.001',
      stopType: 'STOP_LOSS',
      stopPrice: '63680',
      stopPriceOption: 'MARK_PRICE',
    });
    const lost: TpslOrder = {
      id: 'tpsl-lost',
      strategy: 'mm',
      marketId: 1,
      role: 'stop_loss',
      side: 'SELL',
      size: '0.001',
      stopPrice: '63680',
      trigger: 'mark',
      state: 'placing',
      filledSize: '0',
      createdMs: 1,
      updatedMs: 1,
    };
    const restarted = setup({ restored: [lost] });
    restarted.venue.records.push(...t.venue.records);
    restarted.setPosition(long('0.001'));
    await restarted.keeper.sync(true);
    expect(restarted.venue.placed).toBe(0);
    expect(restarted.keeper.orders.get('tpsl-lost')).toMatchObject({ state: 'accepted', venueId: 'tpsl-v1' });
    expect(restarted.venue.active()).toHaveLength(1);
  });

  it('attributes a taker fill of an unknown order on the stop side to the protected strategy, never past its size', async () => {
    const t = setup();
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    const fill = {
      id: 'f1',
      market_id: 1,
      order_id: '0xexec',
      side: 'sell',
      price: '63600',
      size: '0.001',
      fee: '0.01',
      time: 1n,
      liquidity_indicator: 'TAKER',
    } as const;
    const owner = t.keeper.claimFill(fill);
    expect(owner).toEqual({ intentId: t.keeper.orders.all()[0]?.id, strategy: 'mm' });
    expect(t.keeper.claimFill({ ...fill, id: 'f2' })).toBeUndefined();
    expect(t.keeper.claimFill({ ...fill, id: 'f3', side: 'buy' })).toBeUndefined();
    expect(t.keeper.claimFill({ ...fill, id: 'f4', liquidity_indicator: 'MAKER' })).toBeUndefined();
  });

  it('when the venue refuses TP/SL, emulates the stop: it fires once on the mark and closes the position', async () => {
    const t = setup();
    t.venue.refuse = 'TP/SL placement is blocked pending signature verification';
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    expect(t.keeper.refusal).toMatch(/blocked pending signature verification/);
    expect(t.keeper.orders.all().map((o) => o.state)).toEqual(['emulated']);
    t.setMark('63700');
    await t.keeper.sync();
    expect(t.closes).toEqual([]);
    t.setMark('63680');
    await t.keeper.sync();
    await t.keeper.sync();
    expect(t.closes).toHaveLength(1);
    expect(t.keeper.orders.all().map((o) => o.state)).toEqual(['executed']);
  });

  it('asks the venue again a minute after a refusal: the emulated stop is replaced by the venue one', async () => {
    const t = setup();
    t.venue.refuse = 'signature: invalid value';
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    expect(t.keeper.orders.all().map((o) => o.state)).toEqual(['emulated']);
    t.venue.refuse = undefined;
    // Within the minute the refusal stands: nothing is sent.
    await t.clock.advance(ASK_VENUE_AGAIN_MS - 1_000);
    await t.keeper.sync(true);
    expect(t.venue.placed).toBe(0);
    await t.clock.advance(1_000);
    await t.keeper.sync(true);
    expect(t.keeper.refusal).toBeUndefined();
    expect(t.venue.active().map((r) => [r.stop_type, r.size])).toEqual([['STOP_LOSS', '0.001']]);
    expect(t.keeper.orders.all().map((o) => o.state)).toEqual(['cancelled', 'accepted']);
  });

  it('stop(keep) leaves the stops on the venue; stop(cancel) cancels them', async () => {
    const kept = setup();
    kept.setPosition(long('0.001'));
    await kept.keeper.sync();
    await kept.keeper.stop('keep');
    expect(kept.venue.active()).toHaveLength(1);
    const cancelled = setup();
    cancelled.setPosition(long('0.001'));
    await cancelled.keeper.sync();
    await cancelled.keeper.stop('cancel');
    expect(cancelled.venue.active()).toEqual([]);
  });

  it('the watchdog counts a protected position without its venue stop as unprotected after the grace, an emulated one too', async () => {
    const t = setup();
    t.setPosition(long('0.001'));
    expect(t.keeper.unprotected(1000)).toEqual([]);
    await t.clock.advance(1000);
    expect(t.keeper.unprotected(1000)).toMatchObject([{ strategy: 'mm', marketId: 1, emulated: false }]);
    await t.keeper.sync();
    expect(t.keeper.unprotected(1000)).toEqual([]);
    const refused = setup();
    refused.venue.refuse = 'blocked';
    refused.setPosition(long('0.001'));
    await refused.keeper.sync();
    refused.keeper.unprotected(0);
    expect(refused.keeper.unprotected(0)).toMatchObject([{ strategy: 'mm', emulated: true }]);
  });

  it('at start, says the last run emulated its stops and asks the venue again', async () => {
    const emulated: TpslOrder = {
      id: 'tpsl-old',
      strategy: 'mm',
      marketId: 1,
      role: 'stop_loss',
      side: 'SELL',
      size: '0.001',
      stopPrice: '63680',
      trigger: 'mark',
      state: 'emulated',
      reason: 'blocked',
      filledSize: '0',
      createdMs: 1,
      updatedMs: 1,
    };
    const t = setup({ restored: [emulated] });
    expect(t.keeper.orders.get('tpsl-old')?.state).toBe('cancelled');
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    expect(t.venue.active().map((r) => r.size)).toEqual(['0.001']);
    expect(t.keeper.refusal).toBeUndefined();
  });
});
