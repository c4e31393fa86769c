import type { Address } from '../../../core/address.js';
import { refusedActions, type RefusedActions } from '../../../sim/rest/refusedActions.js';
import type { SimContext } from '../../../sim/simContext.js';

/**
 * The simulator's own records of one account, read in-process: the ground truth the journal is
 * audited against. Nothing here comes from the bot or passes through its code.
 */
export interface VenueOrder {
  readonly orderId: string;
  readonly marketId: number;
  readonly clientOrderId?: string;
  readonly status: string;
}

export interface VenueFill {
  readonly id: string;
  readonly orderId: string;
  readonly marketId: number;
  readonly side: 'buy' | 'sell';
  readonly size: string;
  readonly fee: string;
  readonly realizedPnl: string;
  /** When the venue made it, unix ms (its records carry nanoseconds). */
  readonly atMs: number;
}

export interface TruthPosition {
  readonly marketId: number;
  /** Negative when short; "0" when flat. */
  readonly signedSize: string;
}

export interface VenueTruth {
  readonly account: string;
  /** Every order of the account, oldest first. */
  readonly orders: readonly VenueOrder[];
  /** Every fill of the account, oldest first (the order the venue made them in). */
  readonly fills: readonly VenueFill[];
  /** Every listed market's position, flat ones included. */
  readonly positions: readonly TruthPosition[];
  /** Cross-margin balance, decimal USDC. */
  readonly balance: string;
  readonly refused: RefusedActions;
}

const ALL = { page: 1, limit: Number.MAX_SAFE_INTEGER } as const;

/** Reads the account's orders, fills, positions and balance from a running simulator. */
export function readVenueTruth(sim: SimContext, account: Address): VenueTruth {
  const { exchange } = sim;
  const orders = exchange.history.orders(account, { oldestFirst: true }, ALL).items.map((o): VenueOrder => ({
    orderId: o.id.toLowerCase(),
    marketId: o.market_id,
    status: o.status,
    ...(o.client_order_id === undefined ? {} : { clientOrderId: o.client_order_id }),
  }));
  const fills = [...exchange.history.fills(account, ALL).items].reverse().map((f): VenueFill => ({
    id: f.id,
    orderId: f.order_id.toLowerCase(),
    marketId: f.market_id,
    side: f.side === 0 ? 'buy' : 'sell',
    size: f.size,
    fee: f.fee,
    realizedPnl: f.realized_pnl,
    atMs: Number(BigInt(f.time) / 1_000_000n),
  }));
  const positions = exchange.markets().map((m): TruthPosition => {
    const p = exchange.position(account, Number(m.market_id));
    const short = p.side === 'SELL' || p.size_steps.startsWith('-');
    return {
      marketId: Number(m.market_id),
      signedSize: short && p.size !== '0' ? `-${p.size.replace(/^-/, '')}` : p.size.replace(/^-/, ''),
    };
  });
  return {
    account: account.toLowerCase(),
    orders,
    fills,
    positions,
    balance: exchange.balance(account).balance,
    refused: refusedActions(sim),
  };
}
