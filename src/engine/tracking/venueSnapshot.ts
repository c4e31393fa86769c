import type { Address } from '../../core/address.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readAllOpenOrders, type OpenOrdersSnapshotOptions } from '../../venue/rest/readAllOpenOrders.js';
import type { OrderRecord, PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';

/**
 * The account as REST shows it, in the shapes the WebSocket feeds use, so the tracker applies a
 * reconciliation exactly like a feed snapshot. Everything is read before anything is applied.
 */
export interface VenueSnapshot {
  /** Every open order of the markets read (a snapshot: an order of ours not listed is closed). */
  readonly orders: readonly OrderRecord[];
  readonly positions: readonly PositionRecord[];
  /** Unrealized PnL per market, where the venue reports one. */
  readonly unrealized: ReadonlyMap<number, string>;
  readonly balance: string;
}

/**
 * The open orders are read with the venue layer's one snapshot reader (`readAllOpenOrders`): every
 * page, accepted only when consistent. One page would not do: the tracker takes the list as the
 * whole book and closes every order of ours it does not name.
 */
export async function readVenueSnapshot(
  rest: Pick<RestClient, 'openOrders' | 'position' | 'crossMarginBalance'>,
  account: Address,
  marketIds: readonly number[],
  options: Pick<OpenOrdersSnapshotOptions, 'pageSize'> = {},
): Promise<VenueSnapshot> {
  // Independent reads side by side: a reconnect waits on them before trading resumes.
  const [perMarket, { balance }] = await Promise.all([
    Promise.all(
      marketIds.map((marketId) =>
        Promise.all([
          readAllOpenOrders(rest, { account, marketId }, options),
          rest.position({ account, market_id: String(marketId) }),
        ]),
      ),
    ),
    rest.crossMarginBalance(account),
  ]);
  const orders: OrderRecord[] = [];
  const positions: PositionRecord[] = [];
  const unrealized = new Map<number, string>();
  for (const [i, marketId] of marketIds.entries()) {
    const [open, position] = perMarket[i]!;
    for (const o of open.orders) {
      orders.push({
        order_id: o.order_id,
        market_id: Number(o.market_id),
        status: 'ORDER_STATUS_OPEN',
        side: o.side === 0 ? 'buy' : 'sell',
        resting_order_id: o.resting_order_id.toString(),
        wide_order_id: o.wide_order_id.toString(),
        ...(o.client_order_id === undefined ? {} : { client_order_id: o.client_order_id.toString() }),
      });
    }
    // venue-facts: a flat position comes back with empty fields.
    positions.push({
      market_id: marketId,
      size: position.size ?? '0',
      ...(position.side === null ? {} : { side: position.side === 'BUY' ? 'buy' : 'sell' }),
      ...(position.margin_mode === null ? {} : { margin_mode: position.margin_mode as 0 | 1 }),
      ...(position.avg_entry_price === null ? {} : { avg_entry_price: position.avg_entry_price }),
      // Margin set aside for the market, flat or not: the session's equity counts it.
      ...(position.isolated_usdc_balance === null ? {} : { isolated_usdc_balance: position.isolated_usdc_balance }),
    });
    if (position.unrealized_pnl !== null) unrealized.set(marketId, position.unrealized_pnl);
  }
  return { orders, positions, unrealized, balance };
}
