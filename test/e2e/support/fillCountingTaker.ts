import { ignoreElements, map, merge, skip, take, tap } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/**
 * A test strategy that takes liquidity a fixed number of times: one market order per mark, buy
 * and sell in turn (buy first), then, `settle_marks` marks after the last one, it declares itself
 * done. It logs every fill it hears ('fill heard') and every position of its market it sees
 * ('position seen'), so a test can hold what the strategy saw against the journal and the venue.
 */
export default defineStrategy({
  name: 'fill-counting-taker',
  description: 'takes `orders` market orders, then is done; logs the fills and positions it sees',
  params: z.object({ orders: z.number().int().min(1), size: z.string(), settle_marks: z.number().int().min(1) }),
  run: (ctx) => {
    const marketId = ctx.markets[0]!;
    const { orders, size, settle_marks: settleMarks } = ctx.params;
    const heard = ctx.streams
      .fills()
      .pipe(tap((f) => ctx.log.info({ fillId: f.id, orderId: f.orderId, side: f.side, size: f.size }, 'fill heard')));
    const positions = ctx.streams.positions().pipe(
      map((all) => all.find((p) => p.marketId === marketId)),
      tap((p) => ctx.log.info({ side: p?.side ?? 'flat', size: p?.size ?? '0' }, 'position seen')),
    );
    const marks = ctx.streams.mark(marketId);
    const placed = marks.pipe(
      take(orders),
      map((_, i) => ctx.intents.placeMarket({ marketId, side: i % 2 === 0 ? 'buy' : 'sell', size })),
    );
    const finish = marks.pipe(
      skip(orders + settleMarks),
      take(1),
      tap(() => ctx.done('every order sent and settled')),
    );
    return merge(placed, merge(heard, positions, finish).pipe(ignoreElements()));
  },
});
