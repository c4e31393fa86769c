/**
 * What `perpbot new strategy NAME` writes: a small strategy that trades on the simulator with its
 * default params, commented as a starting point, and its test in virtual time. Both import perpbot
 * by its package entries (`perpbot/strategy`, `perpbot/testing`).
 */

/** "my-twap" -> "myTwap": the file name. */
export function strategyFileName(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function strategySource(name: string): string {
  return `/**
 * ${name}: a starting point for a strategy. Every \`interval_ms\` it buys \`size\` at market when
 * flat and sells it back when long, so it trades steadily on the simulator; on stop it closes
 * what is open. Replace \`decide\` (and what feeds it) with your own logic.
 *
 *   npx perpbot check strategies/${strategyFileName(name)}.ts   type-check it and check its params
 *   npx vitest run test/${strategyFileName(name)}.test.ts        its test, in virtual time
 *   npx perpbot start --config bot.yaml        run it (a config whose strategies: name this file)
 *
 * The strategy guide (every member of the context, outcomes, testing, restarts):
 * node_modules/perpbot/docs/strategy-guide.md
 */
import { EMPTY, filter, ignoreElements, merge, mergeMap, of, tap } from 'rxjs';
import { z } from 'zod';
import { compareDecimals, defineStrategy, isFillEvent, type Side } from 'perpbot/strategy';

// The \`params:\` of the strategy's config entry, checked by this schema before anything starts.
// Money is always a decimal string, never a float.
export const params = z.object({
  size: z.string().regex(/^\\d+(\\.\\d+)?$/, 'expected a decimal string such as "0.001"').default('0.001'),
  interval_ms: z.number().int().min(1_000).default(10_000),
});
export type Params = z.infer<typeof params>;

/** The decision, pure so that it is easy to test: buy when flat or short, sell when long. */
export function decide(signedPosition: string): Side {
  return compareDecimals(signedPosition, '0') > 0 ? 'sell' : 'buy';
}

export default defineStrategy({
  name: '${name}',
  description: 'Buys and sells back at market on a fixed interval (a template).',
  params,
  // run() starts once its markets have a mark and a book and the engine trades. It returns the
  // intents it wants as an Observable; the engine checks, signs and sends them.
  run: (ctx) => {
    const marketId = ctx.markets[0]!;
    // ctx.clock.interval runs on the wall clock in production and on virtual time in tests.
    const trade = ctx.clock.interval(ctx.params.interval_ms).pipe(
      mergeMap(() => {
        // Nothing new while an order of ours is still open.
        if (ctx.state.openOrders(marketId).some((o) => o.strategy === ctx.name)) return EMPTY;
        const side = decide(ctx.state.position(marketId)?.signedSize ?? '0');
        return of(ctx.intents.placeMarket({ marketId, side, size: ctx.params.size }));
      }),
    );
    // The life of each order (placed, partially_filled, filled, cancelled, expired, refused).
    const report = ctx.orderEvents.pipe(
      filter(isFillEvent),
      tap((e) => ctx.log.info({ side: e.side, filled: e.lastFillSize, pnl: ctx.pnl.own() }, 'filled')),
      ignoreElements(),
    );
    return merge(trade, report);
  },
  // On stop (Ctrl-C, SIGTERM, or ctx.done()): these intents run before the bot exits.
  onStop: (ctx) => ctx.markets.filter((m) => ctx.state.position(m) !== undefined).map((marketId) => ctx.intents.closePosition({ marketId })),
});
`;
}

export function testSource(name: string): string {
  const file = strategyFileName(name);
  return `import { describe, expect, it } from 'vitest';
import { strategyTest } from 'perpbot/testing';
import strategy, { decide } from '../strategies/${file}.js';

describe('${name}', () => {
  it('buys when flat or short and sells when long', () => {
    expect(decide('0')).toBe('buy');
    expect(decide('-0.001')).toBe('buy');
    expect(decide('0.001')).toBe('sell');
  });

  it('trades every interval (in virtual time) and closes its position on stop', async () => {
    const t = await strategyTest(strategy, { params: { size: '0.001', interval_ms: 10_000 } });
    // The kit runs the real engine against the simulator's exchange: the book is other traders'
    // orders, and run() waits for a mark of its market.
    await t.book(1, { bids: [['64990', '1']], asks: [['65010', '1']] });
    await t.mark(1, '65000');
    await t.advance(30_000);
    expect(t.intentsOf('placeMarket').map((i) => i.side)).toEqual(['buy', 'sell', 'buy']);
    expect(t.state.position(1)?.signedSize).toBe('0.001');
    await t.stop();
    expect(t.intentsOf('closePosition')).toHaveLength(1);
    expect(t.state.position(1)).toBeUndefined();
  });
});
`;
}

/** A config that runs the strategy on the embedded simulator (printed by \`perpbot new\`). */
export function configSnippet(name: string): string {
  return `venue: { profile: sim }
risk:
  max_order_notional: "1000"
  max_position_per_market: "5000"
  max_open_orders: 10
  max_actions_per_second: 5
  kill_switch: { max_loss: "100" }
strategies:
  - name: ${name}
    module: strategies/${strategyFileName(name)}.ts
    markets: [1]
    params: { size: "0.001", interval_ms: 10000 }
`;
}
