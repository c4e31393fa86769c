import { describe, expect, it } from 'vitest';
import type { QuoteOrder } from '../../../src/strategy/index.js';
import type { KeptTarget } from '../../../src/engine/quoting/quoteKeeper.js';
import { QuoteUptime } from '../../../src/engine/quoting/quoteUptime.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import { drivenKit } from './drivenKit.js';

async function kit(latencyMs: number) {
  const { t, emit } = await drivenKit({ latencyMs, book: { bids: '90', asks: '110' } });
  /** The venue's own book, sampled every virtual millisecond for `ms`: the share with both sides. */
  const sample = async (ms: number, into: { both: number; all: number }): Promise<void> => {
    for (let i = 0; i < ms; i++) {
      await t.advance(1);
      const sides = new Set(t.venueOrders(1).map((o) => o.side));
      into.all++;
      if (sides.size === 2) into.both++;
    }
  };
  return { t, emit, sample };
}

const quote = (bid: string, ask: string): QuoteOrder[] => [
  { side: 'buy', size: '0.01', price: bid },
  { side: 'sell', size: '0.01', price: ask },
];

describe('quote uptime', () => {
  it("agrees with the venue's own book sampled every millisecond, and times each requote", async () => {
    const { t, emit, sample } = await kit(10);
    const seen = { both: 0, all: 0 };
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: quote('99', '101'), mode: 'break_before_make' })]);
    await sample(500, seen);
    for (const [bid, ask] of [
      ['99.5', '101.5'],
      ['99.4', '101.4'],
      ['98', '100.5'],
    ] as const) {
      await emit((ctx) => [
        ctx.intents.quote({ marketId: 1, orders: quote(bid, ask), tolerance: { ticks: 2 }, mode: 'break_before_make' }),
      ]);
      await sample(500, seen);
    }
    const [view] = t.quoteUptime();
    const sampled = seen.both / seen.all;
    expect(view).toMatchObject({ strategy: 'driven', marketId: 1 });
    // Within 2 points of the venue's own book; both well below 100 % with a 10 ms wire each way.
    expect(Math.abs((view!.uptime ?? 0) - sampled)).toBeLessThan(0.02);
    expect(view!.uptime).toBeLessThan(1);
    expect(view!.uptime).toBeGreaterThan(0.9);
    // The first target (two places) and two moves (each a replacement a side); the second target was within tolerance.
    expect(view!.requotes).toBe(3);
    expect(view!.actionsPerRequote).toBe((2 + 4 + 4) / 3);
    // A break-before-make move takes a cancel's round trip then a place's: 40 ms on a 10 ms wire each way;
    // the first target's two places one round trip. The venue lacks the quote for the 20 ms between.
    expect(view!.requoteLatencyMs).toEqual({ p50: 40, p99: 40 });
    expect(view!.uptime).toBeCloseTo(1 - (20 + 20 + 20) / 2000, 10);
    expect((view!.missing ?? 0) + (view!.uptime ?? 0)).toBeCloseTo(1, 10);
  });

  it("counts no wanted time while the account's kill switch holds the strategy (a strategy's own trip takes its targets already)", async () => {
    const { t, emit } = await kit(10);
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: quote('99', '101') })]);
    await t.advance(1_000);
    const before = t.quoteUptime()[0]!;
    // The trip cancels the quotes: wanting them until the reset would count the whole halt as missing.
    await t.tripKillSwitch('drill');
    await t.advance(10_000);
    const halted = t.quoteUptime()[0]!;
    expect(halted.wantedMs - before.wantedMs).toBeLessThan(100);
    expect(halted.uptime).toBeGreaterThan(0.9);
    // After the reset the strategy's next target is wanted again, and held once it rests.
    await t.resetKillSwitch();
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: quote('99', '101') })]);
    await t.advance(1_000);
    const again = t.quoteUptime()[0]!;
    expect(again.wantedMs - halted.wantedMs).toBeGreaterThan(900);
    expect(again.requotes).toBe(before.requotes + 1);
  });

  it('measures a strategy without a target from its own orders: an order waits to rest, then is held', async () => {
    const { t, emit } = await kit(25);
    await emit((ctx) => [ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '99' })]);
    await t.advance(1_000);
    const [view] = t.quoteUptime();
    // Wanted from the intent on; held once placed: one round trip (50 ms) of a second missing.
    expect(view!.uptime).toBeCloseTo(0.95, 2);
    expect(view!.requotes).toBe(1);
    expect(view!.requoteLatencyMs.p50).toBe(50);
    expect(view!.actionsPerRequote).toBe(1);
  });

  it('reads no market grid for a strategy without a target (a market record is copied after every mark move)', () => {
    const tracker = new OrderTracker(() => 1_000);
    let gridReads = 0;
    const uptime = new QuoteUptime({
      tracker,
      now: () => 1_000,
      target: () => undefined,
      isMoving: () => false,
      grid: () => {
        gridReads++;
        return { tick: '0.1', step: '0.00001' };
      },
      revision: (strategy, marketId) => tracker.orderCounts.revision(strategy, marketId),
    });
    tracker.submitted({ intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy', size: '0.01', price: '99' });
    uptime.touched('s', 1, { actions: 1 });
    tracker.placed('p-1', '0x00000000000000f2aa');
    uptime.touched('s', 1);

    expect(gridReads).toBe(0);
    expect(uptime.views()).toMatchObject([{ strategy: 's', marketId: 1, requotes: 1 }]);
  });
  it('follows what rests through order events that leave it as it was and through ones that change it', () => {
    let now = 1_000;
    const tracker = new OrderTracker(() => now);
    const wants = (side: 'buy' | 'sell', ticks: bigint) =>
      ({
        wanted: [{ index: 0, side, ticks, steps: 100n, toleranceTicks: 0n }],
        actions: 0,
        sent: 0,
      }) as unknown as KeptTarget;
    let target = wants('buy', 990n);
    const uptime = new QuoteUptime({
      tracker,
      now: () => now,
      target: () => target,
      isMoving: () => false,
      grid: () => ({ tick: '0.1', step: '0.0001' }),
      revision: (strategy, marketId) => tracker.orderCounts.revision(strategy, marketId),
    });
    const at = (ms: number, change: () => void) => {
      now = ms;
      change();
      uptime.touched('s', 1);
    };
    at(1_000, () =>
      tracker.submitted({ intentId: 'b', strategy: 's', marketId: 1, side: 'buy', size: '0.01', price: '99' }),
    );
    at(1_010, () => tracker.placed('b', '0x00000000000000000b'));
    // Another order on its way: nothing more rests, the bid still holds the target.
    at(1_020, () =>
      tracker.submitted({ intentId: 'a', strategy: 's', marketId: 1, side: 'sell', size: '0.01', price: '101' }),
    );
    at(1_030, () => tracker.placed('a', '0x00000000000000000a'));
    at(1_040, () => tracker.cancelled('0x00000000000000000b'));
    // The target moves to the ask that rests, with no order event.
    at(1_050, () => (target = wants('sell', 1010n)));
    now = 1_100;

    expect(uptime.views()).toMatchObject([{ wantedMs: 100, heldMs: 80, uptime: 0.8 }]);
  });
});
