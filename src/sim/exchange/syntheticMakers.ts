import type { Address } from '../../core/address.js';
import { countUnits, decimalToWei } from '../../core/decimal.js';
import type { ExchangeEvent } from './exchangeEvents.js';
import { isExchangeRefusal } from './exchangeRefusal.js';
import type { MarketRecord, OraclePriceRecord, OrderRecord, PlaceOrderParams } from './exchangeRecords.js';
import { deriveSeed, SeededRandom } from './seededRandom.js';

export interface SyntheticMakersConfig {
  /** Price levels quoted per side per market by each quoting bot; default 5. */
  readonly levels?: number;
  /** Ticks between quote levels; default about 1 bp of the mark (at least 1 tick). */
  readonly levelSpacingTicks?: number;
  /** Chance per block per market that the taker bot crosses the spread, in percent; default 20. */
  readonly takeChancePercent?: number;
  /** Largest quote, in multiples of the market's minimum order size; default 40. */
  readonly maxQuoteMultiple?: number;
  /** Chance per block that a quote still in its band is withdrawn and placed afresh, in percent; default 10. */
  readonly refreshChancePercent?: number;
}

/** The part of the exchange the makers use: its public API, nothing internal. */
export interface MakerVenue {
  deposit(account: Address, amountUsdc: string): { readonly events: readonly ExchangeEvent[] };
  placeOrder(account: Address, params: PlaceOrderParams, nowMs: number): { readonly events: readonly ExchangeEvent[] };
  cancelOrder(
    account: Address,
    marketId: number,
    restingOrderId: bigint,
  ): { readonly events: readonly ExchangeEvent[] };
  openOrders(account: Address, marketId: number): OrderRecord[];
  markets(): MarketRecord[];
  oraclePrices(): Record<string, OraclePriceRecord>;
}

/** The internal bot wallets (documented so the faucet can tell bots from people). */
export const SYNTHETIC_MAKER_ACCOUNTS: readonly Address[] = Object.freeze([
  '0x00000000000000000000000000000000000B0701',
  '0x00000000000000000000000000000000000B0702',
]);
export const SYNTHETIC_TAKER_ACCOUNT: Address = '0x00000000000000000000000000000000000b0703';

const BOT_COLLATERAL_USDC = '1000000000000';

/**
 * Background liquidity, seeded. Every block each quoting bot keeps its quotes that are still on
 * their side of the new mark and within a band of it (as a real maker leaves a good quote alone),
 * withdraws the rest and a random few, and tops each side back up to `levels` quotes around the
 * mark (so memory never grows: at most bots × levels × 2 resting orders per market). Now and then
 * the taker bot crosses the spread with a small IOC market order, so strategies see a moving book,
 * trades and fills, while each block changes only a few levels (orderbook updates stay small, as
 * on a real venue). Quotes are plain GTC limits, so a stale user order on the wrong side of the
 * mark gets filled by the fresh ones.
 */
export class SyntheticMakers {
  private readonly random: SeededRandom;
  private readonly levels: number;
  private readonly spacing: number | undefined;
  private readonly takeChance: number;
  private readonly maxMultiple: number;
  private readonly refreshChance: number;

  constructor(
    private readonly venue: MakerVenue,
    seed: number,
    config: SyntheticMakersConfig,
  ) {
    this.random = new SeededRandom(deriveSeed(seed, 'makers'));
    this.levels = positiveInt(config.levels ?? 5, 'levels');
    this.spacing =
      config.levelSpacingTicks === undefined ? undefined : positiveInt(config.levelSpacingTicks, 'levelSpacingTicks');
    this.takeChance = config.takeChancePercent ?? 20;
    this.maxMultiple = positiveInt(config.maxQuoteMultiple ?? 40, 'maxQuoteMultiple');
    this.refreshChance = config.refreshChancePercent ?? 10;
    for (const bot of [...SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT]) venue.deposit(bot, BOT_COLLATERAL_USDC);
  }

  run(nowMs: number): ExchangeEvent[] {
    const events: ExchangeEvent[] = [];
    const prices = this.venue.oraclePrices();
    for (const market of this.venue.markets()) {
      if (!market.active || !market.config.unlocked || market.post_only || market.reduce_only) continue;
      const markWei = BigInt(prices[market.market_id]?.mark_price ?? '0');
      if (markWei <= 0n) continue;
      this.quote(market, markWei, nowMs, events);
      if (this.random.chancePercent(this.takeChance)) this.take(market, markWei, nowMs, events);
    }
    return events;
  }

  private quote(market: MarketRecord, markWei: bigint, nowMs: number, events: ExchangeEvent[]): void {
    const marketId = Number(market.market_id);
    const tickWei = decimalToWei(market.config.step_price, 'step_price');
    const minSteps = Number(countUnits(market.config.min_order_size, market.config.step_size, 'min_order_size', 'up'));
    const markTicks = Number(markWei / tickWei);
    const spacing = this.spacing ?? Math.max(1, Math.floor(markTicks / 10_000));
    // One tick either side of the mark at least, so two bots' fresh quotes never cross.
    const bidTop = markTicks - 1;
    const askTop = markTicks + 1;
    const band = 2 * this.levels * spacing;
    // Withdraw, from both bots, every quote the mark has passed or left beyond the band (and a
    // random few) before placing any: kept and fresh quotes are then all strictly on their side of
    // the mark, so the bots never trade with each other.
    const kept = SYNTHETIC_MAKER_ACCOUNTS.map((bot) => {
      const counts: [number, number] = [0, 0];
      for (const order of this.venue.openOrders(bot, marketId)) {
        const price = order.price_ticks;
        const inBand =
          order.side === 0 ? price <= bidTop && price > bidTop - band : price >= askTop && price < askTop + band;
        if (inBand && !this.random.chancePercent(this.refreshChance)) counts[order.side] += 1;
        else events.push(...this.venue.cancelOrder(bot, marketId, BigInt(order.resting_order_id)).events);
      }
      return counts;
    });
    SYNTHETIC_MAKER_ACCOUNTS.forEach((bot, i) => {
      const [bids, asks] = kept[i] ?? [0, 0];
      for (let n = bids; n < this.levels; n++)
        this.submit(
          bot,
          marketId,
          0,
          bidTop - this.levelOffset(spacing),
          this.quoteSize(minSteps),
          1,
          0,
          nowMs,
          events,
        );
      for (let n = asks; n < this.levels; n++)
        this.submit(
          bot,
          marketId,
          1,
          askTop + this.levelOffset(spacing),
          this.quoteSize(minSteps),
          1,
          0,
          nowMs,
          events,
        );
    });
  }

  /** Ticks behind the top for a fresh quote: a random level, at a random tick within it. */
  private levelOffset(spacing: number): number {
    return this.random.below(this.levels) * spacing + this.random.below(spacing);
  }

  private take(market: MarketRecord, markWei: bigint, nowMs: number, events: ExchangeEvent[]): void {
    const marketId = Number(market.market_id);
    const tickWei = decimalToWei(market.config.step_price, 'step_price');
    const minSteps = Number(countUnits(market.config.min_order_size, market.config.step_size, 'min_order_size', 'up'));
    const side = this.random.below(2) as 0 | 1;
    // Slippage bound 1% through the mark: a buy never pays more, a sell never gets less.
    const bound = side === 0 ? (markWei * 101n) / 100n / tickWei : (markWei * 99n) / 100n / tickWei;
    const size = minSteps * this.random.between(1, 5);
    this.submit(SYNTHETIC_TAKER_ACCOUNT, marketId, side, Number(bound), size, 0, 3, nowMs, events);
  }

  private quoteSize(minSteps: number): number {
    return minSteps * this.random.between(1, this.maxMultiple);
  }

  private submit(
    account: Address,
    marketId: number,
    side: 0 | 1,
    priceTicks: number,
    sizeSteps: number,
    orderType: 0 | 1,
    timeInForce: 0 | 3,
    nowMs: number,
    events: ExchangeEvent[],
  ): void {
    if (priceTicks < 1 || priceTicks > 16_777_215) return;
    const params: PlaceOrderParams = {
      market_id: marketId,
      size_steps: sizeSteps,
      price_ticks: priceTicks,
      side,
      post_only: false,
      reduce_only: false,
      stp_mode: 0,
      order_type: orderType,
      time_in_force: timeInForce,
    };
    try {
      events.push(...this.venue.placeOrder(account, params, nowMs).events);
    } catch (error) {
      // A bot refused by a venue rule (e.g. margin after a wild walk) just skips the quote.
      if (!isExchangeRefusal(error)) throw error;
    }
  }
}

function positiveInt(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`SyntheticMakersConfig.${field} must be a positive integer, got ${value}`);
  return value;
}
