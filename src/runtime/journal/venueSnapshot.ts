import { parseNonceState, type NonceState } from '../../engine/nonces/noncePair.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import { readVenueStateWithNonces } from '../../venue/state/readVenueState.js';
import type { VenuePosition as VenueStatePosition } from '../../venue/state/venuePosition.js';
import type { PositionWrite } from './journal.js';
import type { ReconcileOptions } from './reconcileOptions.js';

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

/**
 * Reads the account's nonce state, balance, and each market's open orders and position with the
 * venue layer's one reader (`readVenueState`); only the mapping to the journal's rows is here.
 */
export async function readVenueSnapshot(o: ReconcileOptions, markets: readonly number[]): Promise<VenueSnapshot> {
  const state = await readVenueStateWithNonces(
    o.rest,
    { account: o.account, markets },
    o.pageSize === undefined ? {} : { pageSize: o.pageSize },
  );
  const { openOrders } = state;
  return {
    nonce: parseNonceState(state.nonceState),
    balance: state.balance,
    openOrders,
    positions: new Map([...state.positions.values()].map((p) => [p.marketId, journalPositionOf(p)])),
    openById: new Map(openOrders.map((v) => [v.order_id.toLowerCase(), v])),
    openByCoid: new Map(
      openOrders.flatMap((v) => (v.client_order_id === undefined ? [] : [[v.client_order_id.toString(), v] as const])),
    ),
  };
}

function journalPositionOf(p: VenueStatePosition): VenuePosition {
  return {
    marketId: p.marketId,
    side: p.side,
    size: p.size,
    signed: p.signedSize,
    ...(p.avgEntryPrice === undefined ? {} : { avgEntryPrice: p.avgEntryPrice }),
    ...(p.marginMode === undefined ? {} : { marginMode: String(p.marginMode) }),
  };
}
