/**
 * The part of the venue's market record (element of `data.markets` of GET /v1/markets) that the
 * engine reads. Structural, so the REST schemas' parsed type fits it without a dependency on
 * their exact shape; flags the spec does not show are optional (venue-facts "Markets").
 */
export interface MarketView {
  readonly market_id: string;
  readonly mark_price: string;
  readonly active?: boolean | undefined;
  readonly post_only?: boolean | undefined;
  readonly reduce_only?: boolean | undefined;
  readonly config: {
    readonly step_size: string;
    readonly step_price: string;
    readonly min_order_size: string;
    /** Decimal string such as "50". Absent: only the uint8 bound (255) applies. */
    readonly max_leverage?: string | undefined;
    readonly unlocked?: boolean | undefined;
  };
}

/** Absent flags mean tradable: the spec's market record does not carry them at all. */
export function isMarketTradable(market: MarketView): boolean {
  return market.active !== false && market.config.unlocked !== false;
}
