import { concat, interval, map, of, tap } from 'rxjs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineStrategy, type TradingStateView } from '../../src/strategy/index.js';
import { StrategyTest } from '../../src/testing/index.js';

/** Buys 0.01 at market once, then asks for a bid every second, noting the trading state it sees each time. */
function loser(seen: TradingStateView[]) {
  return defineStrategy({
    name: 'loser',
    description: 'buys, then keeps bidding',
    params: z.object({}),
    run: (ctx) =>
      concat(
        of(ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: '0.01' })),
        interval(1_000, ctx.clock.scheduler).pipe(
          tap(() => seen.push(ctx.tradingState())),
          map(() =>
            ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.001', price: '50000', postOnly: true }),
          ),
        ),
      ),
  });
}

describe("a strategy's own kill switch halts that strategy", () => {
  it('its loss limit reached, ctx.tradingState() says halted with the reason, and its openings are refused by the kill switch', async () => {
    const seen: TradingStateView[] = [];
    const t = new StrategyTest(loser(seen), { budget: { kill_switch: { max_loss: '5' } } });
    await t.start();
    await t.book(1, { asks: [['60000', '1']], bids: [['59990', '1']] });
    await t.mark(1, '60000');
    await t.advance(1_500);
    expect(t.state.position(1)?.size).toBe('0.01');
    expect(seen.at(-1)?.mode).toBe('trading');
    // 0.01 bought at 60000: a mark of 59000 is a loss of 10 (plus fees), past the limit of 5.
    await t.mark(1, '59000');
    await t.advance(2_000);
    const last = seen.at(-1);
    expect(last?.mode).toBe('halted');
    expect(last?.reasons[0]).toMatch(/^strategy kill switch tripped \(loss limit reached: PnL -\d/);
    const refusals = t.outcomes.filter((o) => o.type === 'refused' && o.refusal.rule === 'kill_switch');
    expect(refusals.length).toBeGreaterThan(0);
    await t.stop();
  });
});
