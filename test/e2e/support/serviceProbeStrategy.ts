import { EMPTY, from, interval, merge, mergeMap, tap, type Observable } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, type Intent } from '../../../src/strategy/index.js';

/**
 * A test strategy for the service features: on start a market buy of `taker_size` (a fill, a
 * position) and resting bids at `bids`; with `cycle_bid`, every `every_ms` it places a post-only
 * bid there when it has none resting and cancels it when it has one (an opening intent, then a
 * cancel, over and over), so a test sees which of the two its scope lets through.
 */
export default defineStrategy({
  name: 'service-probe',
  description: 'places a taker fill and resting bids; optionally cycles a bid',
  params: z.object({
    size: z.string(),
    taker_size: z.string().optional(),
    bids: z.array(z.string()).default([]),
    cycle_bid: z.string().optional(),
    every_ms: z.number().int().positive().default(100),
    report_trading_state: z.boolean().default(false),
  }),
  freshness: { mark: 60_000 },
  run: (ctx) => {
    const marketId = ctx.markets[0] as number;
    const { params } = ctx;
    const opening: Intent[] = [
      ...(params.taker_size === undefined
        ? []
        : [ctx.intents.placeMarket({ marketId, side: 'buy', size: params.taker_size })]),
      ...params.bids.map((price) =>
        ctx.intents.placeLimit({ marketId, side: 'buy', size: params.size, price, postOnly: true }),
      ),
    ];
    let seenMode: string | undefined;
    const report = params.report_trading_state
      ? interval(params.every_ms).pipe(
          tap(() => {
            const state = ctx.tradingState();
            if (state.mode === seenMode) return;
            seenMode = state.mode;
            ctx.log.info({ mode: state.mode, reasons: state.reasons }, 'strategy trading state');
          }),
          mergeMap(() => EMPTY as Observable<Intent>),
        )
      : EMPTY;
    if (params.cycle_bid === undefined) return merge(from(opening), report);
    const cycleBid = params.cycle_bid;
    let resting: string | undefined;
    let pending: string | undefined;
    const followed = ctx.outcomes.pipe(
      tap((o) => {
        if (o.intentId !== pending) return;
        pending = undefined;
        if (o.type === 'accepted' && o.kind === 'placeLimit') resting = o.intentId;
        if (
          o.kind === 'cancel' &&
          (o.type === 'accepted' || (o.type === 'refused' && o.refusal.rule === 'cancel_target_finished'))
        )
          resting = undefined;
      }),
      mergeMap(() => EMPTY as Observable<Intent>),
    );
    const cycle = interval(params.every_ms).pipe(
      mergeMap((): Intent[] => {
        if (pending !== undefined) return [];
        const intent =
          resting === undefined
            ? ctx.intents.placeLimit({ marketId, side: 'buy', size: params.size, price: cycleBid, postOnly: true })
            : ctx.intents.cancel({ marketId, target: { intentId: resting } });
        pending = intent.intentId;
        return [intent];
      }),
    );
    return merge(from(opening), followed, cycle, report);
  },
});
