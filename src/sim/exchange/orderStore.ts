import type { Address } from '../../core/address.js';
import type { SideNotionals } from './initialMargin.js';
import type { MarketSpec } from './markets.js';
import { OpenOrderMargin } from './openOrderMargin.js';
import { OrderBook } from './orderBook.js';
import { wideFromOrderId } from './orderIds.js';
import type { SimOrder } from './simOrder.js';

/** One account's open orders in one market, with their margin side sums kept alongside. */
interface OpenOrders {
  readonly orders: Set<SimOrder>;
  readonly margin: OpenOrderMargin;
}

/**
 * Every order the exchange knows: open ones (in their market's book and indexed by account) and a
 * bounded window of terminal ones, so lookups of a just-filled order work while memory stays
 * bounded however long the simulator runs.
 */
export class OrderStore {
  private readonly books = new Map<number, OrderBook>();
  private readonly bySequence = new Map<bigint, SimOrder>();
  /** account → market → open orders (insertion = placement order). */
  private readonly openByAccount = new Map<Address, Map<number, OpenOrders>>();
  private readonly terminal: bigint[] = [];
  private terminalHead = 0;

  constructor(
    marketIds: Iterable<number>,
    private readonly terminalRetention: number,
  ) {
    for (const id of marketIds) this.books.set(id, new OrderBook());
  }

  book(marketId: number): OrderBook {
    const book = this.books.get(marketId);
    if (book === undefined) throw new RangeError(`no book for market ${marketId}`);
    return book;
  }

  /** Registers a new order; `rest` also puts it in the book. */
  track(order: SimOrder): void {
    this.bySequence.set(order.sequence, order);
  }

  rest(order: SimOrder): void {
    this.book(order.marketId).add(order);
    let markets = this.openByAccount.get(order.account);
    if (markets === undefined) {
      markets = new Map();
      this.openByAccount.set(order.account, markets);
    }
    let open = markets.get(order.marketId);
    if (open === undefined) {
      open = { orders: new Set(), margin: new OpenOrderMargin() };
      markets.set(order.marketId, open);
    }
    open.orders.add(order);
    open.margin.adjust(order, 1);
  }

  /**
   * Records `steps` more filled on `order`. Every fill goes through here, so an open order's
   * contribution to its account's margin sums moves with it.
   */
  fill(order: SimOrder, steps: number): void {
    const open = this.openByAccount.get(order.account)?.get(order.marketId);
    const tracked = open !== undefined && open.orders.has(order);
    if (tracked) open.margin.adjust(order, -1);
    order.filledSteps += steps;
    if (tracked) open.margin.adjust(order, 1);
    this.book(order.marketId).resized(order);
  }

  /** Takes a filled or cancelled order out of the book and the open index. */
  retire(order: SimOrder): void {
    this.book(order.marketId).remove(order);
    const markets = this.openByAccount.get(order.account);
    const open = markets?.get(order.marketId);
    if (markets !== undefined && open !== undefined && open.orders.delete(order)) {
      open.margin.adjust(order, -1);
      if (open.orders.size === 0) markets.delete(order.marketId);
      if (markets.size === 0) this.openByAccount.delete(order.account);
    }
    this.terminal.push(order.sequence);
    while (this.terminal.length - this.terminalHead > this.terminalRetention) {
      const old = this.terminal[this.terminalHead++];
      if (old !== undefined) this.bySequence.delete(old);
    }
    // Compact the window now and then instead of shifting on every retire.
    if (this.terminalHead > 1024 && this.terminalHead * 2 > this.terminal.length) {
      this.terminal.splice(0, this.terminalHead);
      this.terminalHead = 0;
    }
  }

  bySequenceId(sequence: bigint): SimOrder | undefined {
    return this.bySequence.get(sequence);
  }

  byOrderId(orderId: string): SimOrder | undefined {
    const wide = wideFromOrderId(orderId);
    if (wide === undefined) return undefined;
    const order = this.bySequence.get(wide >> 1n);
    return order !== undefined && order.orderId.toLowerCase() === normalizeOrderId(orderId) ? order : undefined;
  }

  /** Open orders of an account, oldest first. */
  openOrders(account: Address, marketId?: number): SimOrder[] {
    const markets = this.openByAccount.get(account);
    if (markets === undefined) return [];
    const list =
      marketId === undefined
        ? [...markets.values()].flatMap((open) => [...open.orders])
        : [...(markets.get(marketId)?.orders ?? [])];
    return list.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  }

  /** Open orders of an account in one market, unsorted and without copying (hot margin path). */
  openOrdersIn(account: Address, marketId: number): ReadonlySet<SimOrder> {
    return this.openByAccount.get(account)?.get(marketId)?.orders ?? EMPTY;
  }

  /**
   * The margin side sums of the account's open orders in `market`, valued at `markWei` (O(1) while
   * the mark stands still).
   */
  marginNotionals(account: Address, market: MarketSpec, markWei: bigint): SideNotionals {
    const open = this.openByAccount.get(account)?.get(market.marketId);
    return open === undefined ? NO_ORDERS : open.margin.at(market, markWei, open.orders);
  }

  /** Sizes for memory checks: orders held in total and open in books. */
  get size(): { known: number; open: number } {
    let open = 0;
    for (const book of this.books.values()) open += book.orderCount;
    return { known: this.bySequence.size, open };
  }
}

const EMPTY: ReadonlySet<SimOrder> = new Set();
const NO_ORDERS: SideNotionals = Object.freeze({ buys: 0n, sells: 0n });

function normalizeOrderId(orderId: string): string {
  const lower = orderId.toLowerCase();
  return lower.startsWith('0x') ? lower : `0x${lower}`;
}
