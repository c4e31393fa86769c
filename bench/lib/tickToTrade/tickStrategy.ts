import { map } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, offsetByBps } from '../../../src/strategy/index.js';

/**
 * The strategy of tick_to_trade: every mark of market 1 answered with one post-only bid 10 %
 * below it (rounded down to the tick), the least a quoting strategy does per tick. `onMark` is
 * called as each mark reaches it, to split the latency into feed-to-strategy and strategy-to-wire.
 */
export function tickStrategy(onMark: () => void) {
  return defineStrategy({
    name: 'tick-to-trade',
    description: 'one limit order per oracle update (bench)',
    params: z.object({}),
    run: (ctx) =>
      ctx.streams.mark(1).pipe(
        map((mark) => {
          onMark();
          return ctx.intents.placeLimit({
            marketId: 1,
            side: 'buy',
            size: '0.00015',
            price: offsetByBps(mark.markPrice, -1000),
            priceRounding: 'down',
            postOnly: true,
          });
        }),
      ),
  });
}
