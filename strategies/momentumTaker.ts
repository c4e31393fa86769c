/**
 * Momentum taker: a directional strategy that takes liquidity.
 *
 * - Keeps the last `lookback_blocks` marks. When flat and the mark has risen by `entry_bps` or
 *   more over the window, it buys `size` at market; fallen by as much, it sells.
 * - While in a position it watches the mark against the entry price: a move of `stop_loss_bps`
 *   against the position closes it (reduce-only market order); a move of `take_profit_bps` in
 *   its favour closes it too.
 * - After any order it waits `cooldown_blocks` marks, so an order still in flight is not doubled.
 *
 * Params: size, lookback_blocks, entry_bps, stop_loss_bps, take_profit_bps, cooldown_blocks.
 */
import { EMPTY, from, merge, mergeMap, type Observable } from 'rxjs';
import { z } from 'zod';
import { changeBps, compareDecimals, defineStrategy, negateDecimal, type Intent, type PositionSnapshot, type StrategyContext } from '../src/strategy/index.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a positive decimal string');

export const momentumParams = z.object({
  size: decimal,
  lookback_blocks: z.number().int().min(2).max(10_000).default(20),
  entry_bps: z.number().positive().default(15),
  stop_loss_bps: z.number().positive().default(30),
  take_profit_bps: z.number().positive().default(60),
  cooldown_blocks: z.number().int().min(0).default(5),
});
export type MomentumParams = z.infer<typeof momentumParams>;

export type MomentumDecision =
  | { readonly action: 'none' }
  | { readonly action: 'enter'; readonly side: 'buy' | 'sell'; readonly moveBps: string }
  | { readonly action: 'close'; readonly reason: 'stop_loss' | 'take_profit'; readonly pnlBps: string };

/** Pure decision on one mark, given the window of earlier marks and the position. */
export function decide(window: readonly string[], mark: string, position: PositionSnapshot | undefined, entryPrice: string | undefined, p: MomentumParams): MomentumDecision {
  const flat = position === undefined || compareDecimals(position.size, '0') === 0;
  if (!flat) {
    const entry = position.avgEntryPrice ?? entryPrice;
    if (entry === undefined) return { action: 'none' };
    const move = changeBps(entry, mark);
    const pnlBps = position.side === 'buy' ? move : negateDecimal(move);
    if (compareDecimals(pnlBps, `-${p.stop_loss_bps}`) <= 0) return { action: 'close', reason: 'stop_loss', pnlBps };
    if (compareDecimals(pnlBps, String(p.take_profit_bps)) >= 0) return { action: 'close', reason: 'take_profit', pnlBps };
    return { action: 'none' };
  }
  const oldest = window[0];
  if (oldest === undefined || window.length < p.lookback_blocks) return { action: 'none' };
  const moveBps = changeBps(oldest, mark);
  if (compareDecimals(moveBps, String(p.entry_bps)) >= 0) return { action: 'enter', side: 'buy', moveBps };
  if (compareDecimals(moveBps, `-${p.entry_bps}`) <= 0) return { action: 'enter', side: 'sell', moveBps };
  return { action: 'none' };
}

function runMomentum(ctx: StrategyContext<MomentumParams>, marketId: number): Observable<Intent> {
  const p = ctx.params;
  const window: string[] = [];
  let cooldown = 0;
  let entryMark: string | undefined;
  return ctx.streams.mark(marketId).pipe(
    mergeMap((m) => {
      const decision = cooldown > 0 ? { action: 'none' as const } : decide(window, m.markPrice, ctx.state.position(marketId), entryMark, p);
      window.push(m.markPrice);
      if (window.length > p.lookback_blocks) window.shift();
      if (cooldown > 0) cooldown--;
      if (decision.action === 'none') return EMPTY;
      cooldown = p.cooldown_blocks;
      ctx.log.info({ marketId, mark: m.markPrice, ...decision }, 'momentum decision');
      if (decision.action === 'enter') {
        entryMark = m.markPrice;
        return from([ctx.intents.placeMarket({ marketId, side: decision.side, size: p.size })]);
      }
      entryMark = undefined;
      window.length = 0;
      return from([ctx.intents.closePosition({ marketId })]);
    }),
  );
}

export default defineStrategy({
  name: 'momentum-taker',
  description: 'Takes a position on a sustained move of the mark; exits on a stop loss or a take profit.',
  params: momentumParams,
  run: (ctx) => merge(...ctx.markets.map((m) => runMomentum(ctx, m))),
});
