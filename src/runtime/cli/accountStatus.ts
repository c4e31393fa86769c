import type { Address } from '../../core/address.js';
import { multiplyUnits } from '../../core/decimal.js';
import { unrealisedPnlOf } from '../../engine/ledger/averageEntry.js';
import { price, pricePlacesOf, usdc } from '../operations/control/statusDisplay.js';
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
  /** `price` at the market's tick. */
  readonly display: { readonly price: string };
}

export interface StatusPosition {
  readonly side: 'BUY' | 'SELL';
  readonly size: string;
  readonly avgEntryPrice: string | null;
  readonly markPrice: string | null;
  /**
   * (markPrice − avgEntryPrice) × signed size, valued as the bot's ledger values positions (average
   * entry, to the venue's 1 wei); the venue's own figure when the entry or the mark is missing.
   */
  readonly unrealisedPnl: string | null;
  readonly leverage: string | null;
  readonly liquidationPrice: string | null;
  /** The prices at the market's tick, unrealisedPnl in USDC to 6 places (half to even). */
  readonly display: {
    readonly avgEntryPrice: string | null;
    readonly markPrice: string | null;
    readonly unrealisedPnl: string | null;
    readonly liquidationPrice: string | null;
  };
}

export interface StatusMarket {
  readonly marketId: number;
  readonly name: string;
  readonly markPrice: string;
  /** null when flat. */
  readonly position: StatusPosition | null;
  readonly openOrders: readonly StatusOrder[];
  readonly display: { readonly markPrice: string };
}

export interface AccountStatus {
  readonly account: Address;
  /** false while the venue knows no on-chain state for the account (no deposit indexed yet). */
  readonly registered: boolean;
  /** Cross-margin balance in USDC, exact as the venue gives it; null when not registered. */
  readonly balance: string | null;
  readonly markets: readonly StatusMarket[];
  /** The balance in USDC to 6 places, half to even: as the bot's status shows it. */
  readonly display: { readonly balance: string | null };
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
    const places = pricePlacesOf(market);
    const position = snapshot.positions.get(marketId);
    return {
      marketId,
      name: market.config.name,
      markPrice: market.mark_price,
      position: position === undefined ? null : toPosition(position, places),
      openOrders: snapshot.openOrders
        .filter((o) => Number(o.market_id) === marketId)
        .map((o) => toOrder(o, market, places)),
      display: { markPrice: price(market.mark_price, places) },
    };
  });
  return {
    account,
    registered: snapshot.balance !== null,
    balance: snapshot.balance,
    markets,
    display: { balance: shown(snapshot.balance, usdc) },
  };
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

function toPosition(position: VenuePosition, places: number | undefined): StatusPosition | null {
  if (position.flat) return null;
  const { avgEntryPrice, markPrice } = position;
  const signedSize = position.side === 'sell' ? `-${position.size}` : position.size;
  const unrealisedPnl =
    avgEntryPrice !== undefined && markPrice !== undefined
      ? unrealisedPnlOf(signedSize, avgEntryPrice, markPrice)
      : (position.unrealizedPnl ?? null);
  const atTick = (value: string): string => price(value, places);
  return {
    side: position.side === 'sell' ? 'SELL' : 'BUY',
    size: position.size,
    avgEntryPrice: avgEntryPrice ?? null,
    markPrice: markPrice ?? null,
    unrealisedPnl,
    leverage: position.leverage ?? null,
    liquidationPrice: position.liquidationPrice ?? null,
    display: {
      avgEntryPrice: shown(avgEntryPrice ?? null, atTick),
      markPrice: shown(markPrice ?? null, atTick),
      unrealisedPnl: shown(unrealisedPnl, usdc),
      liquidationPrice: shown(position.liquidationPrice ?? null, atTick),
    },
  };
}

function shown(value: string | null, format: (value: string) => string): string | null {
  return value === null ? null : format(value);
}

function toOrder(order: OpenOrder, market: Market, places: number | undefined): StatusOrder {
  const orderPrice = multiplyUnits(BigInt(order.price_ticks), market.config.step_price, 'step_price');
  return {
    orderId: order.order_id,
    side: order.side === 0 ? 'buy' : 'sell',
    type: order.order_type === 0 ? 'market' : 'limit',
    size: multiplyUnits(BigInt(order.size_steps), market.config.step_size, 'step_size'),
    price: orderPrice,
    timeInForce: TIF[order.time_in_force],
    postOnly: order.post_only,
    reduceOnly: order.reduce_only,
    display: { price: price(orderPrice, places) },
  };
}
