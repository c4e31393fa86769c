import { z } from 'zod';
import { integer, millis } from './configFields.js';

/**
 * A strategy's `protection:`: the venue's take-profit and stop-loss orders the bot keeps equal to
 * the strategy's position (src/engine/protection), placed at these distances from the average
 * entry, in basis points. They stay on the venue when the bot stops (`shutdown.protection`), so
 * the position is protected while the bot is gone. At least one leg.
 */
export const protectionSchema = z
  .strictObject({
    // 1 to 9999: a stop 100% away is no stop, and a take-profit of a short cannot pass zero.
    stop_loss_bps: integer(1, 9_999).optional(),
    take_profit_bps: integer(1, 9_999).optional(),
    // What the venue's trigger watches: the mark (oracle) price, or the last traded price.
    trigger: z.enum(['mark', 'last']).default('mark'),
  })
  .refine((p) => p.stop_loss_bps !== undefined || p.take_profit_bps !== undefined, {
    message: 'expected stop_loss_bps, take_profit_bps or both',
  });

/**
 * Top-level `protection:`: how the bot keeps the strategies' TP/SL orders. `venue_read_ms`: how
 * often the venue's TP/SL list is read (there is no feed of it); `grace_ms`: how long a protected
 * position may be without an active stop on the venue before the watchdog says so.
 */
export const protectionKeeperSchema = z.strictObject({
  venue_read_ms: millis(60_000).default(2_000),
  grace_ms: millis(3_600_000).default(10_000),
  // When the account's kill switch trips: keep the TP/SL orders protecting the positions (default),
  // or cancel them and place none until it is reset.
  on_kill_switch: z.enum(['keep', 'cancel']).default('keep'),
});

/**
 * Markets where a protected strategy trades beside another strategy: the venue's TP/SL closes the
 * account's position in a market, so a protected strategy owns its markets alone.
 */
export function sharedProtectedMarkets(
  strategies: readonly { readonly name: string; readonly markets: readonly number[]; readonly protection?: unknown }[],
): { marketId: number; strategies: string[] }[] {
  const traders = new Map<number, string[]>();
  for (const s of strategies) for (const m of s.markets) traders.set(m, [...(traders.get(m) ?? []), s.name]);
  const protectedNames = new Set(strategies.filter((s) => s.protection !== undefined).map((s) => s.name));
  return [...traders]
    .filter(([, names]) => names.length > 1 && names.some((n) => protectedNames.has(n)))
    .map(([marketId, names]) => ({ marketId, strategies: names }));
}
