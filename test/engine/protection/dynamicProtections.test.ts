import { describe, expect, it } from 'vitest';
import type { ProtectedMarket } from '../../../src/engine/protection/protectedMarket.js';
import { long, setup } from './keeperFixture.js';

const stopLoss = (bps: number, trigger: 'mark' | 'last' = 'mark'): ProtectedMarket => ({
  strategy: 'mm',
  marketId: 1,
  spec: { stopLossBps: bps, takeProfitBps: undefined, trigger },
});

/** The keeper's protections change while it runs, as a strategy's protect and bracket intents change them. */
describe('ProtectionKeeper: protections a strategy turns on, changes and off at run time', () => {
  it('idles while nothing is protected (not even reading the venue), and protects once asked', async () => {
    const t = setup();
    t.setProtections([]);
    t.setPosition(long('0.002'));
    await t.keeper.sync(true);
    expect(t.venue.lists).toBe(0);
    expect(t.venue.placed).toBe(0);
    t.setProtections([stopLoss(50)]);
    await t.keeper.sync();
    expect(t.venue.lists).toBe(1);
    expect(t.venue.active().map((r) => [r.stop_type, r.size, r.stop_price])).toEqual([['STOP_LOSS', '0.002', '63680']]);
  });

  it('off cancels the legs on the venue and the watchdog stops counting the position; on again places them again', async () => {
    const t = setup({ takeProfitBps: 100 });
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    expect(t.venue.active()).toHaveLength(2);
    t.setProtections([]);
    await t.keeper.sync();
    expect(t.venue.active()).toEqual([]);
    expect(t.venue.cancels).toEqual(['tpsl-v1', 'tpsl-v2']);
    expect(t.keeper.unprotected(0)).toEqual([]);
    // Once the list confirms, the keeper has nothing left to end or follow: it idles again.
    await t.clock.advance(2_000);
    await t.keeper.sync(true);
    const reads = t.venue.lists;
    await t.clock.advance(5_000);
    await t.keeper.sync();
    expect(t.venue.lists).toBe(reads);
    t.setProtections([stopLoss(50)]);
    await t.keeper.sync();
    expect(t.venue.active().map((r) => [r.stop_type, r.size])).toEqual([['STOP_LOSS', '0.001']]);
  });

  it('a changed distance or trigger replaces the leg (the new one placed before the old is cancelled)', async () => {
    const t = setup();
    t.setPosition(long('0.001'));
    await t.keeper.sync();
    t.setProtections([stopLoss(100)]);
    await t.keeper.sync();
    expect(t.venue.active().map((r) => [r.order_id, r.stop_price])).toEqual([['tpsl-v2', '63360']]);
    t.setProtections([stopLoss(100, 'last')]);
    await t.keeper.sync();
    expect(t.venue.active().map((r) => r.order_id)).toEqual(['tpsl-v3']);
    expect(t.keeper.orders.live('mm', 1).map((o) => o.trigger)).toEqual(['last']);
    expect(t.venue.cancels).toEqual(['tpsl-v1', 'tpsl-v2']);
  });

  it("a bracket's legs: none while its entry has not filled, the filled size after a partial fill, none once the unfilled rest is cancelled flat", async () => {
    const t = setup();
    t.setProtections([stopLoss(50)]);
    // The entry rests unfilled: no position, no TP/SL.
    await t.keeper.sync(true);
    expect(t.venue.placed).toBe(0);
    t.setPosition(long('0.004', '64000'));
    await t.keeper.sync();
    expect(t.venue.active().map((r) => r.size)).toEqual(['0.004']);
    // An entry cancelled before it filled at all leaves the position flat: nothing on the venue.
    t.setPosition(undefined);
    await t.keeper.sync();
    expect(t.venue.active()).toEqual([]);
  });

  it("keeps a previous run's leg of a protection not asked again yet (followed, not cancelled)", async () => {
    const first = setup();
    first.setPosition(long('0.001'));
    await first.keeper.sync();
    const live = first.keeper.orders.live('mm', 1);
    const restarted = setup({ restored: live });
    restarted.venue.records.push(...first.venue.records);
    restarted.setProtections([]);
    restarted.setPosition(long('0.001'));
    await restarted.keeper.sync(true);
    expect(restarted.venue.cancels).toEqual([]);
    // Followed: the venue's list still moves it (here: it fired).
    restarted.venue.set('tpsl-v1', 'TPSL_ORDER_STATUS_TRIGGERED');
    await restarted.keeper.sync(true);
    expect(restarted.keeper.orders.live('mm', 1).map((o) => o.state)).toEqual(['triggered']);
  });
});
