import { EMPTY, interval, merge, mergeMap, of, tap, type Observable } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, type Intent } from '../../../src/strategy/index.js';

/**
 * A test strategy that rests one post-only bid and says what it sees of it: every order event it
 * is told (`ctx.orderEvents`), and its open orders in `ctx.state` whenever they change (checked
 * every 50 ms), as log lines a test reads.
 */
export default defineStrategy({
  name: 'order-view',
  description: 'rests one bid; logs its order events and its open orders as ctx.state shows them',
  params: z.object({ price: z.string(), size: z.string() }),
  run: (ctx) => {
    const marketId = ctx.markets[0] as number;
    const bid = ctx.intents.placeLimit({
      marketId,
      side: 'buy',
      size: ctx.params.size,
      price: ctx.params.price,
      postOnly: true,
    });
    const events = ctx.orderEvents.pipe(
      tap((e) => ctx.log.info({ intentId: e.intentId, event: e.type }, 'order event seen by the strategy')),
    );
    let shown = '';
    const view = interval(50).pipe(
      tap(() => {
        const open = ctx.state.openOrders(marketId).map((o) => `${o.intentId}:${o.state}`);
        const now = JSON.stringify(open);
        if (now === shown) return;
        shown = now;
        ctx.log.info({ open, position: ctx.state.position(marketId)?.size ?? '0' }, 'open orders seen by the strategy');
      }),
    );
    // Listening before the bid goes: its first events are told too.
    return merge(merge(events, view).pipe(mergeMap(() => EMPTY as Observable<Intent>)), of<Intent>(bid));
  },
});
