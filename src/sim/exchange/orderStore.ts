import type { Address } from '../../core/address.js';
import { OrderBook } from './orderBook.js';
import { wideFromOrderId } from './orderIds.js';
import type { SimOrder } from './simOrder.js';

/**
 * Every order the exchange knows: open ones (in their market's book and indexed by account) and a
 * bounded window of terminal ones, so lookups of a just-filled order work while memory stays
 * bounded however long the simulator runs.
 */
export class OrderStore {
  private readonly books = new Map<number, OrderBook>();
  private readonly bySequence = new Map<bigint, SimOrder>();
  /** account → market → open orders (insertion = placement order). */
  private readonly openByAccount = new Map<Address, Map<number, Set<SimOrder>>>();
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
    let set = markets.get(order.marketId);
    if (set === undefined) {
      set = new Set();
      markets.set(order.marketId, set);
    }
    set.add(order);
  }

  /** Takes a filled or cancelled order out of the book and the open index. */
  retire(order: SimOrder): void {
    this.book(order.marketId).remove(order);
    const markets = this.openByAccount.get(order.account);
    const set = markets?.get(order.marketId);
    if (markets !== undefined && set !== undefined) {
      set.delete(order);
      if (set.size === 0) markets.delete(order.marketId);
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
    const list = marketId === undefined ? [...markets.values()].flatMap((set) => [...set]) : [...(markets.get(marketId) ?? [])];
    return list.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  }

  /** Open orders of an account in one market, unsorted and without copying (hot margin path). */
  openOrdersIn(account: Address, marketId: number): ReadonlySet<SimOrder> {
    return this.openByAccount.get(account)?.get(marketId) ?? EMPTY;
  }

  /** Sizes for memory checks: orders held in total and open in books. */
  get size(): { known: number; open: number } {
    let open = 0;
    for (const book of this.books.values()) open += book.orderCount;
    return { known: this.bySequence.size, open };
  }
}

const EMPTY: ReadonlySet<SimOrder> = new Set();

function normalizeOrderId(orderId: string): string {
  const lower = orderId.toLowerCase();
  return lower.startsWith('0x') ? lower : `0x${lower}`;
}
