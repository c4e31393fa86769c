import { concat, defer, EMPTY, filter, ignoreElements, interval, merge, take, tap, type Observable } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, forIntent, isTerminalOrderEvent, type Intent } from '../../../src/strategy/index.js';

const step = z.union([z.object({ side: z.enum(['buy', 'sell']), size: z.string() }), z.literal('close')]);

/**
 * A test strategy for the ledger: runs its `steps` in order (a market order of a side and size,
 * or `close`: a closePosition of the account's whole position in the market), each after the
 * previous one ended, logs `ledger probe: script done`, then logs `ctx.pnl.own()` every
 * `report_ms` so a test can compare it with what the status, the metrics and the journal say.
 */
export default defineStrategy({
  name: 'ledger-probe',
  description: 'scripted market orders and a close; reports its own PnL',
  params: z.object({ steps: z.array(step), report_ms: z.number().int().positive().default(100) }),
  freshness: { mark: 600_000 },
  run: (ctx) => {
    const marketId = ctx.markets[0] as number;
    const one = (s: z.infer<typeof step>): Observable<Intent> =>
      defer(() => {
        const intent =
          s === 'close'
            ? ctx.intents.closePosition({ marketId })
            : ctx.intents.placeMarket({ marketId, side: s.side, size: s.size });
        const ended = ctx.orderEvents.pipe(
          filter(forIntent(intent.intentId)),
          filter(isTerminalOrderEvent),
          take(1),
          tap((e) => ctx.log.info({ intentId: e.intentId, event: e.type }, 'ledger probe: step ended')),
          ignoreElements(),
        );
        return merge(ended, [intent]);
      });
    const script = concat(
      ...ctx.params.steps.map(one),
      defer(() => {
        ctx.log.info({}, 'ledger probe: script done');
        return EMPTY;
      }),
    );
    const report = interval(ctx.params.report_ms).pipe(
      tap(() => ctx.log.info({ pnl: ctx.pnl.own() }, 'ledger probe: pnl')),
      ignoreElements(),
    );
    return merge(script, report);
  },
});
