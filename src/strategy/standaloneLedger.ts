import type { Observable, Subscription } from 'rxjs';
import { SessionLedger } from '../engine/ledger/sessionLedger.js';
import type { FillView, StateSnapshot } from './strategyViews.js';

/** What `ctx.pnl` reads: the engine's ledger (`engine.ledger`) satisfies it. */
export type PnlSource = Pick<SessionLedger, 'accountPnl' | 'strategyPnl'>;

/**
 * For a host given no engine ledger (an embedder feeding streams by hand): the engine's ledger
 * class, seeded with the positions `state` shows for `markets` now and following `fills`. A fill it
 * cannot take (not an exact decimal) is reported to `onError`, never thrown at the feed.
 */
export function standaloneLedger(
  state: StateSnapshot,
  fills: Observable<FillView>,
  markets: readonly number[],
  onError: (error: unknown) => void,
): { readonly ledger: PnlSource; readonly subscription: Subscription } {
  const ledger = new SessionLedger((marketId) => state.market(marketId)?.mark_price);
  const opening = markets.flatMap((marketId) => {
    const p = state.position(marketId);
    return p === undefined ? [] : [{ marketId, side: p.side, size: p.size, ...entryOf(p.avgEntryPrice) }];
  });
  ledger.seed(opening);
  const subscription = fills.subscribe((fill) => {
    try {
      ledger.onFill(fill);
    } catch (error) {
      onError(error);
    }
  });
  return { ledger, subscription };
}

function entryOf(avgEntryPrice: string | undefined): { avgEntryPrice?: string } {
  return avgEntryPrice === undefined ? {} : { avgEntryPrice };
}
