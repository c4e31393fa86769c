import { sameAddress, type Address } from '../../core/address.js';
import type { ChannelName } from '../../venue/schemas/wsFramesFields.js';
import type { ExchangeEvent } from '../exchange/exchangeEvents.js';
import type { BalanceRecord, OraclePriceRecord, OrderRecord, PositionRecord } from '../exchange/exchangeRecords.js';
import { accountFrame, fillsFrame, oracleFrame, ordersFrame, positionsFrame, tradesFrame } from './channelFrames.js';
import { frameMeta } from './frameMeta.js';
import { OrderbookPublisher, type BookFrameMeta } from './orderbookPublisher.js';
import { departedOrderbookFrame, type WireDeparture } from './wireDepartures.js';
import type { BlockStamp, SimEvent } from '../simContext.js';
import type { SimWsContext } from './simWsContext.js';
import { CLOSE_SIGNER_REVOKED, type SimWsConnection } from './simWsConnection.js';

/**
 * Routes the simulator's events to connections. Public frames are serialised once per distinct
 * payload; private frames go only to connections authenticated as the event's account.
 */
export class SimWsHub {
  private readonly connections = new Set<SimWsConnection>();
  private readonly byAccount = new Map<string, Set<SimWsConnection>>();
  private readonly books = new OrderbookPublisher();
  /** The head block as the events have told it; book snapshots between blocks carry it. */
  private headBlock = 0;

  constructor(
    private readonly ctx: Pick<SimWsContext, 'clock' | 'exchange'>,
    private readonly departures: readonly WireDeparture[] = [],
  ) {}

  add(connection: SimWsConnection): void {
    this.connections.add(connection);
  }

  remove(connection: SimWsConnection): void {
    this.connections.delete(connection);
    this.unpin(connection);
  }

  /** Pins a connection to an account; private channels of another account are cleared. */
  pin(connection: SimWsConnection, account: Address): void {
    if (connection.account !== undefined && connection.account.toLowerCase() !== account.toLowerCase()) {
      for (const channel of ['orders', 'positions', 'fills', 'account'] as const)
        connection.subscriptions.delete(channel);
    }
    this.unpin(connection);
    connection.account = account;
    const key = account.toLowerCase();
    let set = this.byAccount.get(key);
    if (set === undefined) {
      set = new Set();
      this.byAccount.set(key, set);
    }
    set.add(connection);
  }

  all(): readonly SimWsConnection[] {
    return [...this.connections];
  }

  ofAccount(account: string): readonly SimWsConnection[] {
    return [...(this.byAccount.get(account.toLowerCase()) ?? [])];
  }

  get size(): number {
    return this.connections.size;
  }

  /** Known market ids, as GET /v1/markets lists them. */
  knownMarkets(): number[] {
    return this.ctx.exchange.markets().map((market) => Number(market.market_id));
  }

  /** The snapshot a fresh subscription starts with; oracle, trades and fills have none. */
  sendSnapshot(connection: SimWsConnection, channel: ChannelName): void {
    const meta = frameMeta(this.ctx.clock);
    const wants = (marketId: number): boolean => connection.subscriptions.wants(channel, marketId);
    const account = connection.account;
    const filter = connection.subscriptions.filter(channel);
    // A filter naming only ids that are no market never delivers anything, not even a snapshot.
    if (filter !== undefined && !this.knownMarkets().some((id) => filter.has(id))) return;
    switch (channel) {
      case 'orderbook': {
        const bookMeta = { worker_timestamp: meta.worker_timestamp, block_number: this.headBlock, log_index: 0 };
        for (const marketId of this.knownMarkets().filter(wants)) {
          // Others first catch up to the current book; this connection starts from the snapshot.
          this.publishBook(marketId, bookMeta, connection);
          connection.send(departedOrderbookFrame(this.books.snapshot(marketId, bookMeta), this.departures));
        }
        return;
      }
      case 'orders':
        if (account !== undefined)
          connection.send(
            ordersFrame(
              'snapshot',
              this.ctx.exchange.openOrders(account).filter((o) => wants(o.market_id)),
              meta,
            ),
          );
        return;
      case 'positions':
        if (account !== undefined)
          connection.send(
            positionsFrame(
              'snapshot',
              this.ctx.exchange.positions(account).filter((p) => wants(p.market_id)),
              meta,
            ),
          );
        return;
      case 'account':
        if (account !== undefined) connection.send(accountFrame('snapshot', this.ctx.exchange.balance(account), meta));
        return;
      case 'oracle':
      case 'trades':
      case 'fills':
      case 'funding':
        return; // streams of events only (funding: silent, as on testnet): nothing to start from
    }
  }

  /**
   * Events in the order the simulator emitted them. Consecutive exchange events of one
   * transaction are published together, so a trade that moves five levels is one book update.
   */
  publish(events: readonly SimEvent[]): void {
    let batch: ExchangeBatch | undefined;
    for (const event of events) {
      this.headBlock = Math.max(this.headBlock, event.blockNumber);
      if (event.type === 'exchange') {
        if (batch !== undefined && batch.stamp.txHash === event.txHash) {
          batch.events.push(event.event);
          continue;
        }
        if (batch !== undefined) this.publishBatch(batch);
        batch = { stamp: event, events: [event.event] };
        continue;
      }
      if (batch !== undefined) this.publishBatch(batch);
      batch = undefined;
      if (event.type === 'block') this.publishOracle(event);
      else if (event.status !== 1) this.dropSigner(event.account, event.signer);
    }
    if (batch !== undefined) this.publishBatch(batch);
  }

  private publishBatch(batch: ExchangeBatch): void {
    if (this.connections.size === 0) {
      this.forgetBooks(batch);
      return;
    }
    const meta = frameMeta(this.ctx.clock, batch.stamp);
    const dirtyBooks = new Set<number>();
    const orders = new Map<string, OrderRecord[]>();
    const positions = new Map<string, PositionRecord[]>();
    const balances = new Map<string, BalanceRecord>();
    for (const event of batch.events) {
      switch (event.type) {
        case 'book':
          dirtyBooks.add(event.market_id);
          break;
        case 'trade':
          this.fanOut('trades', event.market_id, () => tradesFrame(event.trade, meta));
          break;
        case 'fill':
          this.toAccount(
            event.account,
            'fills',
            (c) => c.subscriptions.wants('fills', event.market_id),
            fillsFrame(event.fill, meta),
          );
          break;
        case 'order':
          append(orders, event.account, event.order);
          break;
        case 'position':
          append(positions, event.account, event.position);
          break;
        case 'balance':
          balances.set(event.account, event.balance);
          break;
        case 'oracle':
          // Oracle frames follow blocks (one per block, spec), not the exchange's price moves.
          break;
      }
    }
    const bookMeta = { worker_timestamp: meta.worker_timestamp, block_number: batch.stamp.blockNumber, log_index: 0 };
    for (const marketId of dirtyBooks) this.publishBook(marketId, bookMeta);
    for (const [account, list] of orders)
      this.sendFiltered(account, 'orders', list, (kept) => ordersFrame('update', kept, meta));
    for (const [account, list] of positions)
      this.sendFiltered(account, 'positions', list, (kept) => positionsFrame('update', kept, meta));
    for (const [account, balance] of balances)
      this.toAccount(account, 'account', (c) => c.subscriptions.has('account'), accountFrame('update', balance, meta));
  }

  /**
   * A batch nobody can receive (no connection at all: a simulator serving REST only, as under
   * sim_throughput's load) builds no frames; its books are forgotten, as `publishBook` forgets a
   * book nobody watches, so the next subscriber starts from the whole book all the same.
   */
  private forgetBooks(batch: ExchangeBatch): void {
    for (const event of batch.events) if (event.type === 'book') this.books.forget(event.market_id);
  }

  /** A revoked session key's connections are closed: their authentication no longer holds. */
  private dropSigner(account: Address, signer: Address): void {
    for (const connection of this.ofAccount(account)) {
      if (connection.signer !== undefined && sameAddress(connection.signer, signer)) {
        connection.drop(CLOSE_SIGNER_REVOKED, 'session key revoked');
      }
    }
  }

  /** Sends the book's changes to its subscribers; a book nobody watches is not tracked. */
  private publishBook(marketId: number, meta: BookFrameMeta, except?: SimWsConnection): void {
    const watchers = [...this.connections].filter((c) => c !== except && c.subscriptions.wants('orderbook', marketId));
    if (watchers.length === 0 && except === undefined) {
      this.books.forget(marketId);
      return;
    }
    const update = this.books.updateFrom(this.ctx.exchange, marketId, meta);
    if (update === undefined) return;
    sendToAll(watchers, departedOrderbookFrame(update, this.departures));
  }

  private publishOracle(block: BlockStamp): void {
    const byFilter = new Map<string, OneFrame | undefined>();
    let all: Readonly<Record<string, OraclePriceRecord>> | undefined;
    const workerTimestamp = frameMeta(this.ctx.clock).worker_timestamp;
    for (const connection of this.connections) {
      if (!connection.subscriptions.has('oracle')) continue;
      const filter = connection.subscriptions.filter('oracle');
      const key = filter === undefined ? '*' : [...filter].sort((a, b) => a - b).join(',');
      if (!byFilter.has(key)) {
        all ??= this.ctx.exchange.oraclePrices();
        const prices: Record<string, OraclePriceRecord> = {};
        for (const [marketId, price] of Object.entries(all)) {
          if (filter === undefined || filter.has(Number(marketId))) prices[marketId] = price;
        }
        // A filter naming no live market never delivers (spec: unknown ids are acknowledged, then silent).
        byFilter.set(
          key,
          Object.keys(prices).length === 0 ? undefined : new OneFrame(oracleFrame(prices, block, workerTimestamp)),
        );
      }
      byFilter.get(key)?.sendTo(connection);
    }
  }

  /** The frame is built only when a connection wants it (a replay's bot reads no trades). */
  private fanOut(channel: ChannelName, marketId: number, build: () => object): void {
    const watchers = [...this.connections].filter((c) => c.subscriptions.wants(channel, marketId));
    if (watchers.length > 0) sendToAll(watchers, build());
  }

  private toAccount(
    account: string,
    channel: ChannelName,
    wants: (c: SimWsConnection) => boolean,
    frame: object,
  ): void {
    sendToAll(
      this.ofAccount(account).filter((c) => c.subscriptions.has(channel) && wants(c)),
      frame,
    );
  }

  private sendFiltered<T extends { readonly market_id: number }>(
    account: string,
    channel: 'orders' | 'positions',
    records: readonly T[],
    build: (kept: readonly T[]) => object,
  ): void {
    for (const connection of this.ofAccount(account)) {
      if (!connection.subscriptions.has(channel)) continue;
      const kept = records.filter((r) => connection.subscriptions.wants(channel, r.market_id));
      if (kept.length > 0) connection.send(build(kept));
    }
  }

  private unpin(connection: SimWsConnection): void {
    if (connection.account === undefined) return;
    const key = connection.account.toLowerCase();
    const set = this.byAccount.get(key);
    set?.delete(connection);
    if (set?.size === 0) this.byAccount.delete(key);
  }
}

/** One frame for many connections: serialised once, for those that take text, and only if one does. */
class OneFrame {
  private text: string | undefined;

  constructor(private readonly frame: object) {}

  sendTo(connection: SimWsConnection): void {
    connection.send(connection.takesObjects ? this.frame : (this.text ??= JSON.stringify(this.frame)));
  }
}

function sendToAll(connections: Iterable<SimWsConnection>, frame: object): void {
  const one = new OneFrame(frame);
  for (const connection of connections) one.sendTo(connection);
}

interface ExchangeBatch {
  readonly stamp: BlockStamp;
  readonly events: ExchangeEvent[];
}

function append<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
