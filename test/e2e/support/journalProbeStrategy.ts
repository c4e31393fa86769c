import { defer, EMPTY, from } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/**
 * A test strategy that rests a few bids once and, on every later start, resumes from its saved
 * state instead of placing them again: what a restart-safe strategy does with `ctx.storage`.
 */
export const placedState = z.object({ intentIds: z.array(z.string()), starts: z.number().int() });

export default defineStrategy({
  name: 'journal-probe',
  description: 'rests bids once; resumes from its journaled state on restart',
  params: z.object({ bids: z.array(z.string()), size: z.string() }),
  run: (ctx) =>
    defer(() => {
      const storage = ctx.storage;
      if (storage === undefined) throw new Error('journal-probe needs strategy storage');
      const saved = storage.load('placed', placedState);
      if (saved !== undefined) {
        storage.save('placed', { ...saved, starts: saved.starts + 1 });
        return EMPTY;
      }
      const marketId = ctx.markets[0]!;
      const intents = ctx.params.bids.map((price) =>
        ctx.intents.placeLimit({ marketId, side: 'buy', size: ctx.params.size, price, postOnly: true }),
      );
      storage.save('placed', { intentIds: intents.map((i) => i.intentId), starts: 1 });
      return from(intents);
    }),
});
