import { defer, from } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

const order = z.object({ price: z.string(), size: z.string() });

/** A test strategy that rests the bid and the ask it is given, once, and then only watches. */
export default defineStrategy({
  name: 'resting-probe',
  description: 'rests one bid and one ask as given, once',
  params: z.object({ bid: order.optional(), ask: order.optional() }),
  run: (ctx) =>
    defer(() => {
      const marketId = ctx.markets[0]!;
      const { bid, ask } = ctx.params;
      return from([
        ...(bid === undefined ? [] : [ctx.intents.placeLimit({ marketId, side: 'buy', ...bid, postOnly: true })]),
        ...(ask === undefined ? [] : [ctx.intents.placeLimit({ marketId, side: 'sell', ...ask, postOnly: true })]),
      ]);
    }),
});
