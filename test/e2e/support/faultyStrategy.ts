import { AsyncResource } from 'node:async_hooks';
import { EMPTY, filter, from, merge, mergeMap, take } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, offsetByBps } from '../../../src/strategy/index.js';

/**
 * A test strategy that rests one bid under the mark of its market (and, with `oversize`, tries a
 * second that its budget should refuse), then fails once the venue accepted the bid:
 * - `nested`: a subscription it makes itself throws on the next mark (the host stops it, the
 *   others go on);
 * - `detached`: an exception from a timer no strategy can be blamed for (it runs in the async
 *   context of this module's load, as a bug in shared code would): the process shuts down.
 */
const outsideAnyStrategy = new AsyncResource('perpbot-test-detached');

export default defineStrategy({
  name: 'faulty',
  description: 'rests a bid, then fails in a nested subscription or outside any strategy',
  params: z.object({
    size: z.string(),
    offset_bps: z.number().positive(),
    fault: z.enum(['nested', 'detached']),
    oversize: z.string().optional(),
  }),
  run: (ctx) => {
    const marketId = ctx.markets[0]!;
    const fail = ctx.outcomes.pipe(
      filter((o) => o.type === 'accepted' && o.kind === 'placeLimit'),
      take(1),
      mergeMap(() => {
        if (ctx.params.fault === 'nested') {
          ctx.streams.mark(marketId).subscribe(() => {
            throw new Error('faulty: bug in a nested subscription');
          });
        } else {
          outsideAnyStrategy.runInAsyncScope(() =>
            setTimeout(() => {
              throw new Error('faulty: bug outside any strategy');
            }, 0),
          );
        }
        return EMPTY;
      }),
    );
    const bids = ctx.streams.mark(marketId).pipe(
      take(1),
      mergeMap((m) => {
        const bid = (size: string) =>
          ctx.intents.placeLimit({
            marketId,
            side: 'buy',
            size,
            price: offsetByBps(m.markPrice, -ctx.params.offset_bps),
            priceRounding: 'down',
            postOnly: true,
          });
        return from(
          ctx.params.oversize === undefined ? [bid(ctx.params.size)] : [bid(ctx.params.size), bid(ctx.params.oversize)],
        );
      }),
    );
    return merge(bids, fail);
  },
});
