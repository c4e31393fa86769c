/** One channel the probe subscribes to. */
export interface WsChannelProbe {
  readonly channel: string;
  /** Subscribed only after auth_v2 succeeded (needs the session key). */
  readonly private: boolean;
  /** Subscribed with the target's `market_ids` (else for all markets). */
  readonly perMarket: boolean;
}

/**
 * Every channel the probe subscribes to, one line each. A channel that is acked but silent (the
 * venue's `funding` on testnet, `fills` with no trades) is ok: the row judges what came.
 */
export const WS_PROBES: readonly WsChannelProbe[] = [
  { channel: 'orderbook', private: false, perMarket: true },
  { channel: 'trades', private: false, perMarket: true },
  { channel: 'oracle', private: false, perMarket: true },
  { channel: 'funding', private: false, perMarket: true },
  { channel: 'orders', private: true, perMarket: false },
  { channel: 'positions', private: true, perMarket: false },
  { channel: 'fills', private: true, perMarket: false },
  { channel: 'account', private: true, perMarket: false },
];
