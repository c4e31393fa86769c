import type { ChannelMessage } from '../schemas/wsFrames.js';
import type { OracleMessage, OraclePrice } from '../schemas/wsFramesOracle.js';

/**
 * The part of a channel message a subscriber filtered to `marketIds` should see, or undefined
 * when nothing in it concerns those markets. The wire subscription carries the union of every
 * subscriber's markets, so each subscriber is narrowed here. Snapshots of list channels are kept
 * even when empty: "no orders in these markets" is information.
 */
export function selectMarkets(message: ChannelMessage, marketIds: ReadonlySet<number>): ChannelMessage | undefined {
  switch (message.channel) {
    case 'oracle':
      return selectOracle(message, marketIds);
    case 'orderbook':
      return concerns(message.marketId, marketIds) ? message : undefined;
    case 'trades': {
      const trades = message.trades.filter((t) => {
        const id = t.marketId ?? message.marketId;
        return id === undefined || marketIds.has(id);
      });
      return trades.length === 0 ? undefined : { ...message, trades };
    }
    case 'orders': {
      const orders = message.orders.filter((o) => marketIds.has(o.market_id));
      return orders.length === 0 && message.type === 'update' ? undefined : { ...message, orders };
    }
    case 'positions': {
      const positions = message.positions.filter((p) => marketIds.has(p.market_id));
      return positions.length === 0 && message.type === 'update' ? undefined : { ...message, positions };
    }
    case 'funding':
      return concerns(message.marketId, marketIds) ? message : undefined;
    case 'fills':
      return concerns(message.fill.market_id, marketIds) ? message : undefined;
    case 'account':
      return message;
  }
}

/**
 * Every market of the oracle message wanted (a bot on the markets the venue prices): the message
 * itself, not a copy per subscriber of every oracle frame.
 */
function selectOracle(message: OracleMessage, marketIds: ReadonlySet<number>): OracleMessage | undefined {
  if (everyMarketWanted(message.prices, marketIds)) return message.prices.size === 0 ? undefined : message;
  const prices = new Map<number, OraclePrice>();
  for (const [id, price] of message.prices) if (marketIds.has(id)) prices.set(id, price);
  return prices.size === 0 ? undefined : { ...message, prices };
}

function everyMarketWanted(prices: ReadonlyMap<number, unknown>, marketIds: ReadonlySet<number>): boolean {
  for (const id of prices.keys()) if (!marketIds.has(id)) return false;
  return true;
}

/** A message about one market (or none named) concerns the subscriber when it names a wanted market or none. */
function concerns(marketId: number | undefined, marketIds: ReadonlySet<number>): boolean {
  return marketId === undefined || marketIds.has(marketId);
}
