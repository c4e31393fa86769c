import { parseAddress, type Address } from '../../core/address.js';
import { decimalToWei } from '../../core/decimal.js';
import { compileMarket, type MarketSpec } from '../exchange/markets.js';
import type { OrderRecord, TradeRecord } from '../exchange/exchangeRecords.js';
import type { SimRuntime } from '../simRuntime.js';
import type { Subscription } from 'rxjs';
import { orderbookFrameSchema, type OrderbookMessage } from '../../venue/schemas/wsFramesOrderbook.js';
import { oracleFrameSchema, type OracleMessage } from '../../venue/schemas/wsFramesOracle.js';
import { tradesFrameSchema, type Trade, type TradesMessage } from '../../venue/schemas/wsFramesTrades.js';
import { DRIVEN_ACCOUNTS, DRIVEN_DEPOSIT, isDrivenAccount } from './drivenAccounts.js';
import { fillsFromTrade, type QueuedOrder } from './queueFills.js';
import { RecordedBook, type LevelChange } from './recordedBook.js';

/** What a frame did: moved the book, printed trades, set the oracle, nothing (an ack, another market), or refused. */
/**
 * What became of a frame: driven (book, trades, oracle), ignored (control frames, channels that
 * move nothing), refused (the decoders refused it: malformed, a NaN or negative price), or
 * foreign (channel data only of markets this market does not drive).
 */
export type DrivenFrameKind = 'book' | 'trades' | 'oracle' | 'ignored' | 'refused' | 'foreign';

/** A frame read as the client reads it: channel data (the channel's typed message), a control frame, or refused. */
export type DecodedFrame =
  | { readonly kind: 'channel'; readonly message: { readonly channel: string } }
  | { readonly kind: 'control' }
  | { readonly kind: 'malformed' };

export type DrivenFrameDecoder = (raw: string) => DecodedFrame;

/** Frames driven so far, by what they did. */
export type DrivenCounts = Record<DrivenFrameKind, number>;

/** A market the recording drives: its grid, its recorded book, our queue. */
interface DrivenBook {
  readonly spec: MarketSpec;
  readonly book: RecordedBook;
  /** Our resting orders by resting id, with their place in the recorded queue. */
  readonly queue: Map<bigint, QueuedOrder>;
}

/**
 * The simulator's market driven by recorded public frames instead of its synthetic makers and
 * oracle walk (build the runtime with `makers: false, oracleVolatilityPpm: 0`). Feed it every
 * public frame in order, with its time, through `driveFrame`:
 * - orderbook: the recorded levels rest on the exchange as another account's orders, without
 *   matching. A taker (or crossing limit) of ours walks them and consumes what it takes until the
 *   next recorded book frame touching that level replaces it; the published book is the recorded
 *   one plus our own orders.
 * - trades: each recorded trade fills our resting orders by the conservative rules of
 *   `fillsFromTrade` (through our price, or at it after the displayed queue ahead), at our price,
 *   with the venue's fees, then is published as recorded.
 * - oracle: mark and index as recorded, published with a block.
 * The same object drives a replay (recorded frames, virtual time) and paper trading (live frames).
 */
export class DrivenMarket {
  readonly counts: DrivenCounts = { book: 0, trades: 0, oracle: 0, ignored: 0, refused: 0, foreign: 0 };
  private readonly markets = new Map<number, DrivenBook>();
  /** Markets whose recorded book has arrived (a frame of it was driven). */
  private readonly booked = new Set<number>();
  private readonly orders: Subscription;

  /**
   * `decode` reads a frame as the client does: the runtime passes the client's own decoder (its fast
   * paths); by default the venue's wire schemas.
   */
  constructor(
    private readonly runtime: SimRuntime,
    private readonly decode: DrivenFrameDecoder = decodeWithSchemas,
  ) {
    for (const definition of runtime.options.markets) {
      const spec = compileMarket(definition);
      this.markets.set(spec.marketId, {
        spec,
        book: new RecordedBook(spec.tickWei, spec.stepWei),
        queue: new Map(),
      });
    }
    for (const account of Object.values(DRIVEN_ACCOUNTS)) {
      if (!runtime.exchange.isRegistered(account)) runtime.exchange.deposit(account, DRIVEN_DEPOSIT);
    }
    this.orders = runtime.events.subscribe((event) => {
      if (event.type === 'exchange' && event.event.type === 'order') this.follow(event.event.order);
    });
  }

  /** One received frame, at `t` (unix ms, the time its effects are stamped with). Never throws on a bad frame. */
  driveFrame(raw: string, t: number): DrivenFrameKind {
    const kind = this.drive(raw, t);
    this.counts[kind] += 1;
    return kind;
  }

  /** Whether a book frame of `marketId` has been driven (a strategy should not start on an empty book). */
  hasBook(marketId: number): boolean {
    return this.booked.has(marketId);
  }

  /** Stops following our orders. */
  close(): void {
    this.orders.unsubscribe();
  }

  private drive(raw: string, t: number): DrivenFrameKind {
    const decoded = this.decode(raw);
    if (decoded.kind === 'malformed') return 'refused';
    if (decoded.kind !== 'channel') return 'ignored';
    const message = decoded.message;
    if (message.channel === 'orderbook') return this.book(message as OrderbookMessage, t);
    if (message.channel === 'trades') return this.trades(message as TradesMessage, t);
    if (message.channel === 'oracle') return this.oracle(message as OracleMessage);
    return 'ignored';
  }

  private book(message: OrderbookMessage, t: number): DrivenFrameKind {
    const market = this.markets.get(message.marketId);
    if (market === undefined) return 'foreign';
    this.booked.add(message.marketId);
    const changes =
      message.type === 'snapshot'
        ? market.book.replace(message.bids, message.asks)
        : market.book.update(message.bids, message.asks);
    this.showLevels(market, changes, t);
    for (const order of market.queue.values())
      order.aheadSteps = Math.min(order.aheadSteps, market.book.displayed(order.side, order.priceTicks));
    return 'book';
  }

  /** The book account's orders show the changed levels (the exchange keeps which order shows which level). */
  private showLevels(market: DrivenBook, changes: readonly LevelChange[], t: number): void {
    const result = this.runtime.exchange.showRecorded(DRIVEN_ACCOUNTS.book, market.spec.marketId, changes, t);
    this.runtime.recordAction(result.events);
  }

  private trades(message: TradesMessage, t: number): DrivenFrameKind {
    let any = false;
    for (const trade of message.trades) {
      const market = this.markets.get(trade.marketId ?? message.marketId ?? -1);
      if (market === undefined) continue;
      any = true;
      this.fillQueue(market, trade, t);
      const marketId = market.spec.marketId;
      this.runtime.recordAction([{ type: 'trade', market_id: marketId, trade: tradeRecord(trade, marketId, t) }]);
      this.runtime.exchange.printedTrade(marketId, decimalToWei(trade.price, 'trade price', 'down'));
    }
    // A recorded trade may reach a stop on the last price: judged now, not at the next oracle frame.
    if (any) this.runtime.watchTpsl();
    return any ? 'trades' : message.trades.length > 0 ? 'foreign' : 'ignored';
  }

  private fillQueue(market: DrivenBook, trade: Trade, t: number): void {
    if (market.queue.size === 0) return;
    const fills = fillsFromTrade(
      [...market.queue.values()],
      {
        makerSide: trade.makerSide === 'buy' ? 0 : 1,
        priceWei: decimalToWei(trade.price, 'trade price', 'down'),
        steps: Number(decimalToWei(trade.size, 'trade size', 'down') / market.spec.stepWei),
      },
      market.spec.tickWei,
    );
    for (const fill of fills) {
      const result = this.runtime.exchange.fillResting(fill.restingId, DRIVEN_ACCOUNTS.counterparty, fill.steps, t);
      this.runtime.recordAction(result.events);
    }
  }

  private oracle(message: OracleMessage): DrivenFrameKind {
    let any = false;
    let driven = false;
    for (const [marketId, price] of message.prices) {
      const mark = price.markPrice ?? price.indexPrice;
      driven ||= this.markets.has(marketId);
      if (!this.markets.has(marketId) || mark === undefined) continue;
      const markWei = decimalToWei(mark, 'mark price');
      const indexWei = price.indexPrice === undefined ? markWei : decimalToWei(price.indexPrice, 'index price');
      if (markWei <= 0n || indexWei <= 0n) continue;
      this.runtime.exchange.setOraclePrices(marketId, markWei, indexWei);
      any = true;
    }
    if (!any) return driven || message.prices.size === 0 ? 'ignored' : 'foreign';
    this.runtime.mineBlock();
    return 'oracle';
  }

  /** Our orders as the exchange reports them: a new resting one joins the recorded queue behind what is displayed. */
  private follow(order: OrderRecord): void {
    if (isDrivenAccount(order.account)) return;
    const market = this.markets.get(order.market_id);
    if (market === undefined) return;
    const id = BigInt(order.resting_order_id);
    if (order.status !== 'ORDER_STATUS_OPEN') {
      market.queue.delete(id);
      return;
    }
    const remainingSteps = order.size_steps - order.filled_steps;
    const known = market.queue.get(id);
    if (known !== undefined) {
      known.remainingSteps = remainingSteps;
      return;
    }
    market.queue.set(id, {
      restingId: id,
      side: order.side,
      priceTicks: order.price_ticks,
      remainingSteps,
      aheadSteps: market.book.displayed(order.side, order.price_ticks),
    });
  }
}

/** The channels a driven market reads, by the venue's wire schemas. */
function decodeWithSchemas(raw: string): DecodedFrame {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: 'malformed' };
  }
  const { channel, type } = (json ?? {}) as { channel?: unknown; type?: unknown };
  if (type !== 'snapshot' && type !== 'update') return { kind: 'control' };
  const schema =
    channel === 'orderbook'
      ? orderbookFrameSchema
      : channel === 'trades'
        ? tradesFrameSchema
        : channel === 'oracle'
          ? oracleFrameSchema
          : undefined;
  if (schema === undefined) return { kind: 'channel', message: { channel: String(channel) } };
  const parsed = schema.safeParse(json);
  return parsed.success ? { kind: 'channel', message: parsed.data } : { kind: 'malformed' };
}

/** A recorded trade as the trades channel publishes it again (its time: when it was received). */
function tradeRecord(trade: Trade, marketId: number, t: number): TradeRecord {
  return {
    id: trade.id,
    market_id: marketId,
    maker_order_id: trade.makerOrderId,
    taker_order_id: trade.takerOrderId,
    maker: addressOr(trade.maker, DRIVEN_ACCOUNTS.book),
    taker: addressOr(trade.taker, DRIVEN_ACCOUNTS.counterparty),
    maker_side: trade.makerSide === 'buy' ? 0 : 1,
    price: trade.price,
    size: trade.size,
    fee_maker: trade.feeMaker ?? '0',
    fee_taker: trade.feeTaker ?? '0',
    time: (BigInt(t) * 1_000_000n).toString(),
  };
}

function addressOr(text: string, fallback: Address): Address {
  try {
    return parseAddress(text, 'recorded trade address');
  } catch {
    return fallback;
  }
}
