/**
 * Momentum taker: a directional strategy that takes liquidity.
 *
 * - Keeps the last `lookback_blocks` marks. When flat and the mark has risen by `entry_bps` or
 *   more over the window, it buys `size` at market; fallen by as much, it sells.
 * - While in a position it watches the mark against the entry price: a move of `stop_loss_bps`
 *   against the position closes it (reduce-only market order); a move of `take_profit_bps` in
 *   its favour closes it too.
 * - After any order it waits `cooldown_blocks` marks, so an order still in flight is not doubled.
 * - Restart-safe: the side and entry mark of a position it opens are saved in `ctx.storage`, and
 *   forgotten when it closes. On start it resumes the stop and take profit of an open position
 *   from that entry (or the venue's average entry price); a position with neither takes the first
 *   mark as its entry, so no position is ever left without a stop. A flat start forgets the entry.
 *
 * Params: size, lookback_blocks, entry_bps, stop_loss_bps, take_profit_bps, cooldown_blocks.
 */
import { defer, EMPTY, from, merge, mergeMap, type Observable } from 'rxjs';
import { z } from 'zod';
import {
  changeBps,
  compareDecimals,
  defineStrategy,
  negateDecimal,
  type Intent,
  type PositionSnapshot,
  type StrategyContext,
} from '../src/strategy/index.js';

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
export function decide(
  window: readonly string[],
  mark: string,
  position: PositionSnapshot | undefined,
  entryPrice: string | undefined,
  p: MomentumParams,
): MomentumDecision {
  const flat = position === undefined || compareDecimals(position.size, '0') === 0;
  if (!flat) {
    const entry = position.avgEntryPrice ?? entryPrice;
    if (entry === undefined) return { action: 'none' };
    const move = changeBps(entry, mark);
    const pnlBps = position.side === 'buy' ? move : negateDecimal(move);
    if (compareDecimals(pnlBps, `-${p.stop_loss_bps}`) <= 0) return { action: 'close', reason: 'stop_loss', pnlBps };
    if (compareDecimals(pnlBps, String(p.take_profit_bps)) >= 0)
      return { action: 'close', reason: 'take_profit', pnlBps };
    return { action: 'none' };
  }
  const oldest = window[0];
  if (oldest === undefined || window.length < p.lookback_blocks) return { action: 'none' };
  const moveBps = changeBps(oldest, mark);
  if (compareDecimals(moveBps, String(p.entry_bps)) >= 0) return { action: 'enter', side: 'buy', moveBps };
  if (compareDecimals(moveBps, `-${p.entry_bps}`) <= 0) return { action: 'enter', side: 'sell', moveBps };
  return { action: 'none' };
}

/** What the momentum taker saves per market while in a position it opened. */
export const savedEntrySchema = z.object({ side: z.enum(['buy', 'sell']), entryPrice: z.string() });
export type SavedEntry = z.infer<typeof savedEntrySchema>;

export interface ResumedEntry {
  /** The entry to judge the stop and take profit from; undefined: flat, or the first mark decides. */
  readonly entryPrice?: string;
  /** The saved entry no longer describes the position (flat, or the other side): drop it. */
  readonly forget: boolean;
}

/** On start: the saved entry applies while the position it was saved for is still open on that side. */
export function resumeEntry(saved: SavedEntry | undefined, position: PositionSnapshot | undefined): ResumedEntry {
  const open = position !== undefined && compareDecimals(position.size, '0') !== 0;
  if (!open) return { forget: saved !== undefined };
  if (saved !== undefined && saved.side === position.side) return { entryPrice: saved.entryPrice, forget: false };
  return {
    ...(position.avgEntryPrice === undefined ? {} : { entryPrice: position.avgEntryPrice }),
    forget: saved !== undefined,
  };
}

function runMomentum(ctx: StrategyContext<MomentumParams>, marketId: number): Observable<Intent> {
  const p = ctx.params;
  const key = `entry-${marketId}`;
  const window: string[] = [];
  let cooldown = 0;
  let entryMark: string | undefined;
  return defer(() => {
    const position = ctx.state.position(marketId);
    const resumed = resumeEntry(ctx.storage?.load(key, savedEntrySchema), position);
    entryMark = resumed.entryPrice;
    if (resumed.forget) ctx.storage?.delete(key);
    if (entryMark !== undefined)
      ctx.log.info(
        { marketId, side: position?.side, size: position?.size, entryPrice: entryMark },
        'open position resumed with its stop',
      );
    return ctx.streams.mark(marketId);
  }).pipe(
    mergeMap((m) => {
      const position = ctx.state.position(marketId);
      if (
        entryMark === undefined &&
        position !== undefined &&
        compareDecimals(position.size, '0') !== 0 &&
        position.avgEntryPrice === undefined
      ) {
        // A position with no known entry (opened elsewhere, or saved state lost): its stop starts here.
        entryMark = m.markPrice;
        ctx.storage?.save(key, { side: position.side, entryPrice: entryMark } satisfies SavedEntry);
        ctx.log.warn(
          { marketId, entryPrice: entryMark },
          'open position without an entry price: the stop is measured from this mark',
        );
      }
      const decision = cooldown > 0 ? { action: 'none' as const } : decide(window, m.markPrice, position, entryMark, p);
      window.push(m.markPrice);
      if (window.length > p.lookback_blocks) window.shift();
      if (cooldown > 0) cooldown--;
      if (decision.action === 'none') return EMPTY;
      cooldown = p.cooldown_blocks;
      ctx.log.info({ marketId, mark: m.markPrice, ...decision }, 'momentum decision');
      if (decision.action === 'enter') {
        entryMark = m.markPrice;
        // Saved before the order leaves: a restart with the position open keeps its stop.
        ctx.storage?.save(key, { side: decision.side, entryPrice: entryMark } satisfies SavedEntry);
        return from([ctx.intents.placeMarket({ marketId, side: decision.side, size: p.size })]);
      }
      entryMark = undefined;
      window.length = 0;
      ctx.storage?.delete(key);
      return from([ctx.intents.closePosition({ marketId })]);
    }),
  );
}

export default defineStrategy({
  name: 'momentum-taker',
  description: 'Takes a position on a sustained move of the mark; exits on a stop loss or a take profit.',
  params: momentumParams,
  // Entries are decided on the mark's recent moves: a late mark would enter on an old move.
  freshness: { mark: 2000 },
  run: (ctx) => merge(...ctx.markets.map((m) => runMomentum(ctx, m))),
});
