import { map, merge, of, timer } from 'rxjs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineStrategy } from '../../src/strategy/index.js';
import { StrategyTest } from '../../src/testing/index.js';

/**
 * Rests a bracketed bid (0.003 at 59900, stop-loss `stop_loss_bps`, take-profit 100 bps); after
 * `cancel_after_ms` cancels the entry, after `unprotect_after_ms` turns the protection off.
 */
const bracketed = defineStrategy({
  name: 'bracketed',
  description: 'one bracketed bid',
  params: z.object({
    stop_loss_bps: z.number().default(50),
    cancel_after_ms: z.number().optional(),
    unprotect_after_ms: z.number().optional(),
  }),
  run: (ctx) => {
    const entry = ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.003', price: '59900', postOnly: true });
    const { stop_loss_bps, cancel_after_ms, unprotect_after_ms } = ctx.params;
    return merge(
      of(ctx.intents.bracket({ entry, stopLossBps: stop_loss_bps, takeProfitBps: 100 })),
      cancel_after_ms === undefined
        ? of()
        : timer(cancel_after_ms, ctx.clock.scheduler).pipe(
            map(() => ctx.intents.cancel({ marketId: 1, target: { intentId: entry.intentId } })),
          ),
      unprotect_after_ms === undefined
        ? of()
        : timer(unprotect_after_ms, ctx.clock.scheduler).pipe(map(() => ctx.intents.unprotect({ marketId: 1 }))),
    );
  },
});

/** Knows nothing of protection: buys 0.002 at market once. */
const buyer = defineStrategy({
  name: 'buyer',
  description: 'buys once',
  params: z.object({}),
  run: (ctx) => of(ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: '0.002' })),
});

async function started(t: StrategyTest<unknown>): Promise<void> {
  await t.start();
  await t.book(1, { asks: [['60000', '1']], bids: [['59800', '1']] });
  await t.mark(1, '60000');
}

const legs = (t: StrategyTest<unknown>): string[][] =>
  t.protection
    .venueOrders(1)
    .map((o) => [o.stopType, o.side, o.size, o.stopPrice])
    .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));

describe('the strategy test kit: protect and bracket keep real TP/SL on the simulator', () => {
  it("a bracket's legs are sized to what filled; the stop fires on the mark, closes the position and takes the take-profit with it", async () => {
    const t = new StrategyTest(bracketed, { blockMs: 250 });
    await started(t);
    await t.advance(500);
    const [bracket] = t.intentsOf('bracket');
    expect(t.outcomes.find((o) => o.intentId === bracket?.intentId)?.type).toBe('accepted');
    expect(t.protection.inForce()).toEqual([
      { strategy: 'bracketed', marketId: 1, spec: { stopLossBps: 50, takeProfitBps: 100, trigger: 'mark' } },
    ]);
    // Resting unfilled: nothing to protect.
    expect(t.protection.venueOrders()).toEqual([]);

    await t.fill(bracket?.entry.intentId ?? '', '0.001');
    await t.advance(500);
    expect(t.state.position(1)?.size).toBe('0.001');
    // 59900 − 50 bps = 59600.5 and + 100 bps = 60499, both on the market's 0.5 tick.
    expect(legs(t)).toEqual([
      ['STOP_LOSS', 'SELL', '0.001', '59600.5'],
      ['TAKE_PROFIT', 'SELL', '0.001', '60499'],
    ]);

    // The mark through the stop: the simulator triggers and executes it (a buyer at 59500 takes it).
    await t.book(1, { asks: [['60000', '1']], bids: [['59500', '1']] });
    await t.mark(1, '59550');
    await t.advance(3_000);
    expect(t.state.position(1)).toBeUndefined();
    expect(t.protection.venueOrders()).toEqual([]);
    expect(t.protection.orders().map((o) => [o.role, o.state])).toEqual([
      ['stop_loss', 'executed'],
      ['take_profit', 'cancelled'],
    ]);
    await t.stop();
    expect(t.errors).toEqual([]);
  });

  it('an entry cancelled unfilled leaves no TP/SL; unprotect ends the protection', async () => {
    const t = new StrategyTest(bracketed, { params: { cancel_after_ms: 1_000, unprotect_after_ms: 2_000 } });
    await started(t);
    await t.advance(1_500);
    expect(t.intentsOf('cancel')).toHaveLength(1);
    expect(t.venueOrders(1)).toEqual([]);
    expect(t.protection.inForce()).toHaveLength(1);
    expect(t.protection.venueOrders()).toEqual([]);
    await t.advance(1_000);
    expect(t.intentsOf('protect')).toMatchObject([{ kind: 'protect', marketId: 1, off: true }]);
    expect(t.protection.inForce()).toEqual([]);
    expect(t.protection.orders()).toEqual([]);
    await t.stop();
  });

  it('the protection option protects a strategy that knows nothing of it, as the YAML protection: does', async () => {
    const t = new StrategyTest(buyer, { protection: { stopLossBps: 100 } });
    await started(t);
    await t.advance(1_000);
    expect(t.state.position(1)?.size).toBe('0.002');
    expect(legs(t)).toEqual([['STOP_LOSS', 'SELL', '0.002', '59400']]);
    await t.stop();
  });

  it('a bracket refused for its protection places nothing: the refusal names the field, its value and what to send', async () => {
    const t = new StrategyTest(bracketed, { params: { stop_loss_bps: 0 } });
    await started(t);
    await t.advance(500);
    const [bracket] = t.intentsOf('bracket');
    const outcome = t.outcomes.find((o) => o.intentId === bracket?.intentId);
    expect(outcome).toMatchObject({
      type: 'refused',
      refusal: {
        rule: 'protection',
        value: '0',
        reason: 'stopLossBps must be a whole number of basis points from 1 to 9999',
        hints: ['e.g. stopLossBps: 50 is 0.5% from the average entry'],
      },
    });
    // The entry never ran: no outcome of it, nothing on the venue, nothing protected.
    expect(t.outcomes.filter((o) => o.intentId === bracket?.entry.intentId)).toEqual([]);
    expect(t.venueOrders(1)).toEqual([]);
    expect(t.protection.inForce()).toEqual([]);
    await t.stop();
  });
});
