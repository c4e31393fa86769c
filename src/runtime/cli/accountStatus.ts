import type { Address } from '../../core/address.js';
import { multiplyUnits } from '../../core/decimal.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readAllOpenOrders } from '../../venue/rest/readAllOpenOrders.js';
import type { Market } from '../../venue/schemas/restMarkets.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import { readVenuePosition, type VenuePosition } from '../../venue/state/venuePosition.js';
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
  let balance: string | null = null;
  try {
    balance = (await rest.crossMarginBalance(account, call)).balance;
  } catch (error) {
    if (!isNotRegisteredYet(error)) throw error;
  }
  const markets: StatusMarket[] = [];
  for (const marketId of options.markets) {
    const market = byId.get(marketId);
    if (market === undefined) continue;
    // The venue layer's readers: the position normalised as everywhere else, every page of orders.
    const position = balance === null ? null : toPosition(await readVenuePosition(rest, account, marketId, call));
    const open = await readAllOpenOrders(rest, { account, marketId }, call === undefined ? {} : { callOptions: call });
    markets.push({
      marketId,
      name: market.config.name,
      markPrice: market.mark_price,
      position,
      openOrders: open.orders.map((o) => toOrder(o, market)),
    });
  }
  return { account, registered: balance !== null, balance, markets };
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
