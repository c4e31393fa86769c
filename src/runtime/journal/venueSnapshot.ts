import { parseNonceState, type NonceState } from '../../engine/nonces/noncePair.js';
import type { Side } from '../../engine/intents/intents.js';
import { readAllOpenOrders } from '../../venue/rest/readAllOpenOrders.js';
import type { Position } from '../../venue/schemas/restAccount.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import type { PositionWrite } from './journal.js';
import { signedPosition } from './positionBase.js';
import type { ReconcileOptions } from './reconcileWithVenue.js';

/** The venue's position in a market as the journal writes it, and as one signed decimal. */
export type VenuePosition = PositionWrite & { readonly signed: string };

/** What the venue holds now, read once per reconciliation. */
export interface VenueSnapshot {
  readonly nonce: NonceState;
  /** The cross-margin balance as the venue sent it. */
  readonly balance: string;
  /** The open orders of every market read, market by market. */
  readonly openOrders: readonly OpenOrder[];
  readonly positions: ReadonlyMap<number, VenuePosition>;
  /** Open orders by order id (lower case). */
  readonly openById: ReadonlyMap<string, OpenOrder>;
  /** Open orders by client_order_id (decimal). */
  readonly openByCoid: ReadonlyMap<string, OpenOrder>;
}

/** Reads the account's nonce state, balance, and each market's open orders and position. */
export async function readVenueSnapshot(o: ReconcileOptions, markets: readonly number[]): Promise<VenueSnapshot> {
  const { account } = o;
  // Independent reads side by side: every reconnect waits on them before trading resumes.
  const [nonceState, balanceRead, perMarket] = await Promise.all([
    o.rest.nonceState(account),
    o.rest.crossMarginBalance(account),
    Promise.all(
      markets.map((marketId) =>
        Promise.all([
          readAllOpenOrders(o.rest, { account, marketId }, o.pageSize === undefined ? {} : { pageSize: o.pageSize }),
          o.rest.position({ account, market_id: String(marketId) }),
        ]),
      ),
    ),
  ]);
  const nonce = parseNonceState(nonceState);
  const openOrders: OpenOrder[] = [];
  const positions = new Map<number, VenuePosition>();
  for (const [i, marketId] of markets.entries()) {
    const [open, p] = perMarket[i]!;
    openOrders.push(...open.orders);
    positions.set(marketId, venuePositionOf(marketId, p));
  }
  return {
    nonce,
    balance: balanceRead.balance,
    openOrders,
    positions,
    openById: new Map(openOrders.map((v) => [v.order_id.toLowerCase(), v])),
    openByCoid: new Map(
      openOrders.flatMap((v) => (v.client_order_id === undefined ? [] : [[v.client_order_id.toString(), v] as const])),
    ),
  };
}

function venuePositionOf(marketId: number, p: Position): VenuePosition {
  const size = (p.size ?? '0').replace(/^-/, '') || '0';
  const side: Side = p.side === 'SELL' || (p.size ?? '').startsWith('-') ? 'sell' : 'buy';
  return {
    marketId,
    side,
    size,
    signed: signedPosition(side, size),
    ...(p.avg_entry_price === null || p.avg_entry_price === undefined || p.avg_entry_price === ''
      ? {}
      : { avgEntryPrice: p.avg_entry_price }),
    ...(p.margin_mode === null || p.margin_mode === undefined ? {} : { marginMode: String(p.margin_mode) }),
  };
}
