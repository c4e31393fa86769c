import type { Address } from '../../core/address.js';
import { multiplyUnits } from '../../core/decimal.js';
import type { RestCallOptions, RestClient } from '../../venue/rest/restClient.js';
import { readAllOpenOrders } from '../../venue/rest/readAllOpenOrders.js';
import type { Market } from '../../venue/schemas/restMarkets.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import type { VenuePosition } from '../../venue/state/venuePosition.js';
import { readVenueSnapshot, type VenueSnapshot, type VenueSnapshotReads } from '../../venue/state/venueSnapshot.js';
import { readMarkets } from '../../venue/venueInfo.js';
import { isNotRegisteredYet } from '../account/waitForRegistration.js';

export interface StatusOrder {
  readonly orderId: string;
  readonly side: 'buy' | 'sell';
  readonly type: 'market' | 'limit';
  readonly size: string;
  readonly price: string;
  readonly timeInForce: 'GTC' | 'GTT' | 'FOK' | 'IOC';
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
}

export interface StatusPosition {
  readonly side: 'BUY' | 'SELL';
  readonly size: string;
  readonly avgEntryPrice: string | null;
  readonly markPrice: string | null;
  readonly unrealizedPnl: string | null;
  readonly leverage: string | null;
  readonly liquidationPrice: string | null;
}

export interface StatusMarket {
  readonly marketId: number;
  readonly name: string;
  readonly markPrice: string;
  /** null when flat. */
  readonly position: StatusPosition | null;
  readonly openOrders: readonly StatusOrder[];
}

export interface AccountStatus {
  readonly account: Address;
  /** false while the venue knows no on-chain state for the account (no deposit indexed yet). */
  readonly registered: boolean;
  /** Cross-margin balance in USDC; null when not registered. */
  readonly balance: string | null;
  readonly markets: readonly StatusMarket[];
}

const TIF = ['GTC', 'GTT', 'FOK', 'IOC'] as const;

/**
 * Balance, position and open orders of one account in the given markets, from the unsigned REST
 * reads. Sizes and prices are converted from steps and ticks with the market's exact units.
 */
export async function readAccountStatus(options: {
  readonly rest: Pick<RestClient, 'markets' | 'crossMarginBalance' | 'position' | 'openOrders'>;
  readonly account: Address;
  readonly markets: readonly number[];
  readonly signal?: AbortSignal;
}): Promise<AccountStatus> {
  const { rest, account, signal } = options;
  const call = signal === undefined ? undefined : { signal };
  const byId = new Map((await readMarkets(rest, signal)).map((m) => [Number(m.market_id), m]));
  const listed = options.markets.filter((id) => byId.has(id));
  const snapshot = await readStatusSnapshot(rest, account, listed, call);
  const markets = listed.map((marketId): StatusMarket => {
    const market = byId.get(marketId) as Market;
    const position = snapshot.positions.get(marketId);
    return {
      marketId,
      name: market.config.name,
      markPrice: market.mark_price,
      position: position === undefined ? null : toPosition(position),
      openOrders: snapshot.openOrders.filter((o) => Number(o.market_id) === marketId).map((o) => toOrder(o, market)),
    };
  });
  return { account, registered: snapshot.balance !== null, balance: snapshot.balance, markets };
}

/**
 * The venue layer's one read (every page of orders, the position normalised as everywhere else);
 * for an account the venue does not know yet, its open orders alone (none, but asked), no balance.
 */
async function readStatusSnapshot(
  rest: VenueSnapshotReads,
  account: Address,
  markets: readonly number[],
  callOptions: RestCallOptions | undefined,
): Promise<Omit<VenueSnapshot, 'balance'> & { readonly balance: string | null }> {
  const options = callOptions === undefined ? {} : { callOptions };
  try {
    return await readVenueSnapshot(rest, { account, markets }, options);
  } catch (error) {
    if (!isNotRegisteredYet(error)) throw error;
  }
  const pages = await Promise.all(markets.map((marketId) => readAllOpenOrders(rest, { account, marketId }, options)));
  return { markets, openOrders: pages.flatMap((p) => p.orders), positions: new Map(), balance: null };
}

/** Configured markets the venue does not list (shown as a warning, not an error). */
export function unknownMarkets(requested: readonly number[], status: AccountStatus): number[] {
  const seen = new Set(status.markets.map((m) => m.marketId));
  return requested.filter((id) => !seen.has(id));
}

function toPosition(position: VenuePosition): StatusPosition | null {
  if (position.flat) return null;
  return {
    side: position.side === 'sell' ? 'SELL' : 'BUY',
    size: position.size,
    avgEntryPrice: position.avgEntryPrice ?? null,
    markPrice: position.markPrice ?? null,
    unrealizedPnl: position.unrealizedPnl ?? null,
    leverage: position.leverage ?? null,
    liquidationPrice: position.liquidationPrice ?? null,
  };
}

function toOrder(order: OpenOrder, market: Market): StatusOrder {
  return {
    orderId: order.order_id,
    side: order.side === 0 ? 'buy' : 'sell',
    type: order.order_type === 0 ? 'market' : 'limit',
    size: multiplyUnits(BigInt(order.size_steps), market.config.step_size, 'step_size'),
    price: multiplyUnits(BigInt(order.price_ticks), market.config.step_price, 'step_price'),
    timeInForce: TIF[order.time_in_force],
    postOnly: order.post_only,
    reduceOnly: order.reduce_only,
  };
}
