import type { Address } from '../../core/address.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { BoundedLog } from './boundedLog.js';
import type { ExchangeEvent } from './exchangeEvents.js';
import type { FillRecord, OrderHistoryRecord, OrderRecord, OrderStatus } from './exchangeRecords.js';
import {
  applyFill,
  newHistoryEntry,
  toOrderHistoryRecord,
  type HistoryEntry,
  type HistoryStamp,
} from './historyEntry.js';
import type { MarketSpec } from './markets.js';

export interface AccountHistoryDeps {
  market(marketId: number): MarketSpec;
  readonly makerFeeBps: bigint;
  readonly takerFeeBps: bigint;
  /** Accounts whose history is not kept: the simulator's own liquidity bots. */
  readonly exempt: readonly Address[];
  /** Orders, and separately fills, kept per account; older ones are forgotten. */
  readonly retention: number;
}

export interface OrderHistoryFilter {
  /** Only these statuses; undefined = all. */
  readonly statuses?: ReadonlySet<OrderStatus | 'ORDER_STATUS_NONE'>;
  /** Only these order ids (lowercase, 0x-prefixed); undefined = all. */
  readonly orderIds?: ReadonlySet<string>;
  /** Oldest first instead of the default newest first (sorted_by=created_at). */
  readonly oldestFirst?: boolean;
}

export interface PageRequest {
  /** 1-based. */
  readonly page: number;
  readonly limit: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly hasNextPage: boolean;
}

/** Fills (and the log_index) of orders whose first order event has not been seen yet, by order id. */
type PendingFills = Map<string, { readonly logIndex: number; readonly fills: FillRecord[] }>;

interface AccountLogs {
  readonly orders: BoundedLog<HistoryEntry>;
  readonly fills: BoundedLog<FillRecord>;
}

/**
 * Per-account order history and fill list, built from the exchange's events as they are mined,
 * so the history reads say exactly what the orders and fills channels said: the same fill ids,
 * prices, sizes and fees, and each order's last status. The events carry no block or
 * transaction, so the caller passes the stamp of the transaction (or block) that produced them.
 */
export class AccountHistory {
  private readonly accounts = new Map<string, AccountLogs>();
  private readonly byOrderId = new Map<string, HistoryEntry>();
  private readonly exempt: ReadonlySet<string>;
  /** Highest order sequence seen: an order event for an unknown lower sequence is an evicted order, not a new one. */
  private highestSequence = 0n;
  private logBlock = -1;
  private logCounter = 0;

  constructor(private readonly deps: AccountHistoryDeps) {
    if (!Number.isSafeInteger(deps.retention) || deps.retention < 1) {
      throw new InvalidValueError('historyRetention', deps.retention, 'an integer >= 1');
    }
    this.exempt = new Set(deps.exempt.map((a) => a.toLowerCase()));
  }

  /** Records what one transaction or block produced, in order. */
  record(events: readonly ExchangeEvent[], stamp: HistoryStamp): void {
    // Fills of an order arrive before its first order event when it takes liquidity on entry.
    const pending: PendingFills = new Map();
    for (const event of events) {
      const logIndex = this.nextLogIndex(stamp.blockNumber);
      if (event.type === 'trade') {
        // A taker's first event is its trade: the order's log_index is taken from there.
        const taker = event.trade.taker_order_id;
        if (!this.byOrderId.has(taker) && !pending.has(taker)) pending.set(taker, { logIndex, fills: [] });
      } else if (event.type === 'fill') this.recordFill(event.account, event.fill, logIndex, pending);
      else if (event.type === 'order') this.recordOrder(event.account, event.order, stamp, logIndex, pending);
    }
  }

  /** A fill goes to the account's list and to its order, or waits for the order's first event. */
  private recordFill(account: Address, fill: FillRecord, logIndex: number, pending: PendingFills): void {
    if (this.isExempt(account)) return;
    this.logs(account).fills.push(fill);
    const entry = this.byOrderId.get(fill.order_id);
    if (entry !== undefined) {
      applyFill(entry, fill);
      return;
    }
    let waiting = pending.get(fill.order_id);
    if (waiting === undefined) {
      waiting = { logIndex, fills: [] };
      pending.set(fill.order_id, waiting);
    }
    waiting.fills.push(fill);
  }

  /** A known order takes its latest record; a new one gets its entry, with the fills that came first. */
  private recordOrder(
    account: Address,
    order: OrderRecord,
    stamp: HistoryStamp,
    logIndex: number,
    pending: PendingFills,
  ): void {
    const sequence = BigInt(order.resting_order_id);
    const known = this.byOrderId.get(order.order_id);
    if (known !== undefined) {
      known.order = order;
    } else if (sequence > this.highestSequence && !this.isExempt(account)) {
      const waiting = pending.get(order.order_id);
      const tookLiquidity = waiting?.fills.some((fill) => fill.liquidity_indicator === 'TAKER') ?? false;
      // The rate the order pays: taker when it traded on entry or never rested, else maker.
      const rests = order.status === 'ORDER_STATUS_OPEN' && !tookLiquidity;
      const feeBps = Number(rests ? this.deps.makerFeeBps : this.deps.takerFeeBps);
      const entry = newHistoryEntry(order, stamp, waiting?.logIndex ?? logIndex, feeBps);
      for (const fill of waiting?.fills ?? []) applyFill(entry, fill);
      this.byOrderId.set(order.order_id, entry);
      this.logs(account).orders.push(entry);
    }
    if (sequence > this.highestSequence) this.highestSequence = sequence;
  }

  /** One page of an account's orders, newest first unless `filter.oldestFirst`. */
  orders(account: Address, filter: OrderHistoryFilter, page: PageRequest): Page<OrderHistoryRecord> {
    const logs = this.accounts.get(account.toLowerCase());
    if (logs === undefined) return { items: [], hasNextPage: false };
    const entries = filter.oldestFirst === true ? logs.orders.oldestFirst() : logs.orders.newestFirst();
    const matching = filterIterable(entries, (entry) => {
      if (filter.statuses !== undefined && !filter.statuses.has(entry.order.status)) return false;
      return filter.orderIds === undefined || filter.orderIds.has(entry.order.order_id.toLowerCase());
    });
    const slice = pageOf(matching, page);
    return { items: slice.items.map((entry) => this.toRecord(entry)), hasNextPage: slice.hasNextPage };
  }

  /** By order id (any case, with or without 0x); undefined when unknown, exempt or forgotten. */
  order(orderId: string): OrderHistoryRecord | undefined {
    const lower = orderId.toLowerCase();
    const entry = this.byOrderId.get(lower.startsWith('0x') ? lower : `0x${lower}`);
    return entry === undefined ? undefined : this.toRecord(entry);
  }

  /** One page of an account's fills, newest first, each exactly as the fills channel sent it. */
  fills(account: Address, page: PageRequest): Page<FillRecord> {
    const logs = this.accounts.get(account.toLowerCase());
    if (logs === undefined) return { items: [], hasNextPage: false };
    const slice = pageOf(logs.fills.newestFirst(), page);
    return slice;
  }

  /** Orders held, for memory checks. */
  get size(): { accounts: number; orders: number } {
    return { accounts: this.accounts.size, orders: this.byOrderId.size };
  }

  private toRecord(entry: HistoryEntry): OrderHistoryRecord {
    return toOrderHistoryRecord(entry, this.deps.market(entry.order.market_id));
  }

  private isExempt(account: Address): boolean {
    return this.exempt.has(account.toLowerCase());
  }

  private logs(account: Address): AccountLogs {
    const key = account.toLowerCase();
    let logs = this.accounts.get(key);
    if (logs === undefined) {
      logs = {
        orders: new BoundedLog<HistoryEntry>(this.deps.retention, (entry) =>
          this.byOrderId.delete(entry.order.order_id),
        ),
        fills: new BoundedLog<FillRecord>(this.deps.retention),
      };
      this.accounts.set(key, logs);
    }
    return logs;
  }

  /** log_index: the event's position among every event mined in its block. */
  private nextLogIndex(blockNumber: number): number {
    if (blockNumber !== this.logBlock) {
      this.logBlock = blockNumber;
      this.logCounter = 0;
    }
    return this.logCounter++;
  }
}

function* filterIterable<T>(items: Iterable<T>, keep: (item: T) => boolean): IterableIterator<T> {
  for (const item of items) if (keep(item)) yield item;
}

/** Skips to the page and reads one item past it to know whether a next page exists. */
function pageOf<T>(items: Iterable<T>, { page, limit }: PageRequest): { items: T[]; hasNextPage: boolean } {
  const skip = (page - 1) * limit;
  const out: T[] = [];
  let index = 0;
  for (const item of items) {
    if (index >= skip + limit) return { items: out, hasNextPage: true };
    if (index >= skip) out.push(item);
    index += 1;
  }
  return { items: out, hasNextPage: false };
}
