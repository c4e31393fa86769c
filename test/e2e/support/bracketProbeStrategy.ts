import { compareDecimals } from '../../../src/core/decimal.js';
import { concat, defer, filter, map, of, take } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/**
 * A test strategy with no `protection:` of its own: it rests one bid as a bracket's entry (the
 * stop-loss and take-profit given), and turns the protection off (`unprotect`) once its position
 * reaches `off_at`.
 */
export default defineStrategy({
  name: 'bracket-probe',
  description: 'one bracketed bid; protection off at a given position',
  params: z.object({
    entry: z.object({ price: z.string(), size: z.string() }),
    stop_loss_bps: z.number().int().optional(),
    take_profit_bps: z.number().int().optional(),
    off_at: z.string().optional(),
  }),
  run: (ctx) =>
    defer(() => {
      const marketId = ctx.markets[0]!;
      const { entry, stop_loss_bps, take_profit_bps, off_at } = ctx.params;
      const bracket = ctx.intents.bracket({
        entry: ctx.intents.placeLimit({ marketId, side: 'buy', ...entry, postOnly: true }),
        ...(stop_loss_bps === undefined ? {} : { stopLossBps: stop_loss_bps }),
        ...(take_profit_bps === undefined ? {} : { takeProfitBps: take_profit_bps }),
      });
      if (off_at === undefined) return of(bracket);
      const off = ctx.streams.positions().pipe(
        filter((ps) => ps.some((p) => p.marketId === marketId && compareDecimals(p.size, off_at) >= 0)),
        take(1),
        map(() => ctx.intents.unprotect({ marketId })),
      );
      return concat(of(bracket), off);
    }),
});
