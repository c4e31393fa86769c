import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A client frame as the scripted venue saw it, with the number of the connection it came on. */
export interface SeenFrame {
  readonly connection: number;
  readonly frame: { method: string; params: Record<string, unknown> };
}

/**
 * A real WebSocket peer on 127.0.0.1, port 0, scripted by each test: by default it acknowledges
 * subscriptions with the filter requested and accepts every auth_v2; tests override `ackMarketIds`,
 * `authStatus` or `respond` to play a misbehaving venue, push channel frames and drop connections.
 */
export class ScriptedVenue {
  readonly frames: SeenFrame[] = [];
  readonly sockets: WebSocket[] = [];
  /** The market ids the ack claims to apply; default: those requested. */
  ackMarketIds: (requested: number[] | undefined) => number[] = (requested) => requested ?? [];
  /** Reply to the n-th (0-based) auth frame. */
  authStatus: (index: number) => 'success' | 'error' = () => 'success';
  /** Replaces the default replies when set; return true to suppress them. */
  respond: ((seen: SeenFrame, socket: WebSocket) => boolean) | undefined;
  private waiters: { predicate: (f: SeenFrame) => boolean; resolve: (f: SeenFrame) => void; from: number }[] = [];
  private connectionWaiters: { count: number; resolve: () => void }[] = [];
  private authCount = 0;

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      const connection = this.sockets.length;
      this.sockets.push(socket);
      socket.on('message', (data) => this.onFrame(connection, socket, data.toString()));
      this.connectionWaiters = this.connectionWaiters.filter((w) => {
        if (this.sockets.length < w.count) return true;
        w.resolve();
        return false;
      });
    });
  }

  static async start(): Promise<ScriptedVenue> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    return new ScriptedVenue(server);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The client frames seen so far with this method. */
  sent(method: string, channel?: string): SeenFrame[] {
    return this.frames.filter(
      (f) => f.frame.method === method && (channel === undefined || f.frame.params.channel === channel),
    );
  }

  /** Resolves with the first frame at index >= `from` that matches. */
  nextFrame(predicate: (f: SeenFrame) => boolean, from = 0): Promise<SeenFrame> {
    const existing = this.frames.slice(from).find(predicate);
    if (existing !== undefined) return Promise.resolve(existing);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve, from }));
  }

  frameWith(method: string, channel?: string, from = 0): Promise<SeenFrame> {
    return this.nextFrame(
      (f) => f.frame.method === method && (channel === undefined || f.frame.params.channel === channel),
      from,
    );
  }

  /** Resolves once `count` connections have been accepted in total. */
  connectionCount(count: number): Promise<void> {
    if (this.sockets.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.connectionWaiters.push({ count, resolve }));
  }

  /** Sends a frame to the newest connection. */
  push(frame: unknown): void {
    const socket = this.sockets[this.sockets.length - 1];
    socket?.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /**
   * Resolves once the newest connection answers a ping. The client's pong goes out after every
   * frame it wrote before it read the ping, on the same socket, so by then `frames` holds all of
   * them: a test asserts that a frame was not sent without waiting on the wall clock.
   */
  async flush(): Promise<void> {
    const socket = this.sockets[this.sockets.length - 1];
    if (socket === undefined) throw new Error('flush: no connection to ping');
    const pong = once(socket, 'pong');
    socket.ping();
    await pong;
  }

  /** Drops the newest connection abruptly (no close handshake). */
  drop(): void {
    this.sockets[this.sockets.length - 1]?.terminate();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onFrame(connection: number, socket: WebSocket, text: string): void {
    const seen: SeenFrame = { connection, frame: JSON.parse(text) as SeenFrame['frame'] };
    this.frames.push(seen);
    const index = this.frames.length - 1;
    this.waiters = this.waiters.filter((w) => {
      if (index < w.from || !w.predicate(seen)) return true;
      w.resolve(seen);
      return false;
    });
    if (this.respond?.(seen, socket) === true) return;
    const { method, params } = seen.frame;
    if (method === 'subscribe') {
      const requested = params.market_ids as number[] | undefined;
      const applied = this.ackMarketIds(requested);
      socket.send(
        JSON.stringify({
          type: 'subscribed',
          method: 'subscribe',
          status: 'success',
          message: `subscribed to ${String(params.channel)} for ${applied.length === 0 ? 'all markets' : `${applied.length} markets`}`,
          channel: params.channel,
          data: { market_ids: applied },
        }),
      );
    } else if (method === 'unsubscribe') {
      socket.send(
        JSON.stringify({ type: 'unsubscribed', method: 'unsubscribe', status: 'success', channel: params.channel }),
      );
    } else if (method === 'auth_v2') {
      const status = this.authStatus(this.authCount++);
      socket.send(
        JSON.stringify(
          status === 'success'
            ? { method: 'auth_v2', status, data: { account: params.account, signer: params.signer } }
            : { method: 'auth_v2', status, message: 'invalid signature' },
        ),
      );
    }
  }
}

export function oracleFrame(
  block: number,
  prices: Record<string, { mark_price?: string; index_price?: string }>,
): object {
  return {
    channel: 'oracle',
    type: 'update',
    market_id: null,
    data: { prices, timestamp: 1_700_000_000 + block },
    tx_hash: `0x${block.toString(16).padStart(64, '0')}`,
    block_number: block,
    log_index: 0,
    worker_timestamp: `${1_700_000_000 + block}000000000`,
  };
}

export function tradeFrame(marketId: number, id: string, price = '100.5'): object {
  return {
    channel: 'trades',
    type: 'update',
    market_id: marketId,
    data: {
      id,
      maker_order_id: '0x01',
      taker_order_id: '0x02',
      maker: '0x1111111111111111111111111111111111111111',
      taker: '0x2222222222222222222222222222222222222222',
      maker_side: 'BUY',
      price,
      size: '0.5',
    },
    worker_timestamp: '1700000000000000000',
  };
}
