import type { Address } from '../../core/address.js';
import type { ExchangeEvent } from './exchangeEvents.js';
import type {
  BalanceRecord,
  BookSnapshot,
  MarketRecord,
  OraclePriceRecord,
  OrderRecord,
  PlaceOrderParams,
  PositionRecord,
} from './exchangeRecords.js';
import { DEFAULT_MARKETS, type MarketDefinition } from './markets.js';

/**
 * The simulator's exchange core: pure, deterministic and synchronous. No I/O, no timers, no
 * clock: time and block numbers come in as arguments. Every mutating call returns the events it
 * produced; refusals throw `ExchangeRejection` whose `text` is the venue's error text.
 */
export interface ExchangeOptions {
  /** Seeds the oracle walk and the synthetic makers (uint32). */
  readonly seed: number;
  readonly markets?: readonly MarketDefinition[];
  /** Fees in basis points of notional; defaults maker 2, taker 5. */
  readonly makerFeeBps?: bigint;
  readonly takerFeeBps?: bigint;
  /** Leverage of a market the account never set; default 10 (capped by max_leverage). */
  readonly defaultLeverage?: number;
  /** Per-block mark move bound in parts per million; default 300 (3 bps). */
  readonly oracleVolatilityPpm?: number;
  /** Synthetic liquidity; `false` turns it off (unit tests of matching). */
  readonly makers?: SyntheticMakersConfig | false;
  /** Terminal (filled/cancelled) orders kept for lookup; older ones are forgotten. Default 10,000. */
  readonly terminalOrderRetention?: number;
}

export interface SyntheticMakersConfig {
  /** Price levels quoted per side per market; default 5. */
  readonly levels?: number;
  /** Ticks between quote levels; default: about 1 bp of the mark. */
  readonly levelSpacingTicks?: number;
  /** Chance per block per market that a taker bot crosses the spread, in percent; default 20. */
  readonly takeChancePercent?: number;
}

export interface PlaceOrderResult {
  readonly order: OrderRecord;
  /** Decimal size filled by this placement (the place response's `filled_quantity`). */
  readonly filled_quantity: string;
  /** 0..100, integer percent of size_steps filled now (`filled_percent`). */
  readonly filled_percent: number;
  readonly events: readonly ExchangeEvent[];
}

export interface ActionResult {
  readonly events: readonly ExchangeEvent[];
}

export interface CancelAllResult extends ActionResult {
  readonly cancelled: readonly OrderRecord[];
}

export { DEFAULT_MARKETS };

export class Exchange {
  constructor(options: ExchangeOptions) {
    void options;
    throw new Error('Exchange: not implemented yet');
  }

  /** Registers the account on first deposit; amount is a positive decimal USDC string. */
  deposit(account: Address, amountUsdc: string): ActionResult {
    void account;
    void amountUsdc;
    throw new Error('not implemented');
  }

  /** True once the account has deposited (the venue's "registered"). */
  isRegistered(account: Address): boolean {
    void account;
    throw new Error('not implemented');
  }

  /** `nowMs` is the unix time in milliseconds the action is mined at (fills carry it). */
  placeOrder(account: Address, params: PlaceOrderParams, nowMs: number): PlaceOrderResult {
    void account;
    void params;
    void nowMs;
    throw new Error('not implemented');
  }

  cancelOrder(account: Address, marketId: number, restingOrderId: bigint): ActionResult {
    void account;
    void marketId;
    void restingOrderId;
    throw new Error('not implemented');
  }

  cancelAll(account: Address, marketId: number): CancelAllResult {
    void account;
    void marketId;
    throw new Error('not implemented');
  }

  /** leverage 1..255 and at most the market's max_leverage. */
  setLeverage(account: Address, marketId: number, leverage: number): ActionResult {
    void account;
    void marketId;
    void leverage;
    throw new Error('not implemented');
  }

  /** 0 cross, 1 isolated; fails with OpenPositionExists(<signed size_steps>) while a position is open. */
  setMarginMode(account: Address, marketId: number, marginMode: number): ActionResult {
    void account;
    void marketId;
    void marginMode;
    throw new Error('not implemented');
  }

  /** amount: signed int128 in USD wei (18 decimals); positive adds, negative removes. */
  adjustIsolatedMargin(account: Address, marketId: number, amountWei: bigint): ActionResult {
    void account;
    void marketId;
    void amountWei;
    throw new Error('not implemented');
  }

  /** Moves the oracle, expires GTT orders, runs the synthetic makers. */
  advanceBlock(blockNumber: number, timestampMs: number): ActionResult {
    void blockNumber;
    void timestampMs;
    throw new Error('not implemented');
  }

  /** Test control: sets mark (and index) of a market; `price` is a decimal string. */
  setMark(marketId: number, price: string): ActionResult {
    void marketId;
    void price;
    throw new Error('not implemented');
  }

  openOrders(account: Address, marketId?: number): OrderRecord[] {
    void account;
    void marketId;
    throw new Error('not implemented');
  }

  /** By hex order_id; undefined when unknown or forgotten. */
  order(orderId: string): OrderRecord | undefined {
    void orderId;
    throw new Error('not implemented');
  }

  orderByRestingId(restingOrderId: bigint): OrderRecord | undefined {
    void restingOrderId;
    throw new Error('not implemented');
  }

  position(account: Address, marketId: number): PositionRecord {
    void account;
    void marketId;
    throw new Error('not implemented');
  }

  /** Open (non-flat) positions only. */
  positions(account: Address): PositionRecord[] {
    void account;
    throw new Error('not implemented');
  }

  balance(account: Address): BalanceRecord {
    void account;
    throw new Error('not implemented');
  }

  book(marketId: number, depth?: number): BookSnapshot {
    void marketId;
    void depth;
    throw new Error('not implemented');
  }

  /** Market records as GET /v1/markets shows them (mark, index, last price filled in). */
  markets(): MarketRecord[] {
    throw new Error('not implemented');
  }

  oraclePrices(): Record<string, OraclePriceRecord> {
    throw new Error('not implemented');
  }

  get blockNumber(): number {
    throw new Error('not implemented');
  }
}
