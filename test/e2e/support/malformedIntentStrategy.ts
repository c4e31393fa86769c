import { from } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/**
 * A test strategy that emits one bid whose size is not a decimal: its budget's notional check
 * cannot multiply it and throws. The bid must be refused by the budget (fails closed), never
 * handed on to the engine or the venue.
 */
export default defineStrategy({
  name: 'malformed-intent',
  description: 'emits one bid with a size that is not a number',
  params: z.object({}),
  run: (ctx) =>
    from([
      ctx.intents.placeLimit({ marketId: ctx.markets[0]!, side: 'buy', size: 'abc', price: '60000', postOnly: true }),
    ]),
});
