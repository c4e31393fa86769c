import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Subject } from 'rxjs';
import WebSocket from 'ws';
import type { Address } from '../../src/core/address.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseDomain } from '../../src/protocol/domain.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import { SimChainState } from '../../src/sim/chain/simChainState.js';
import { Exchange } from '../../src/sim/exchange/exchange.js';
import type { ExchangeEvent } from '../../src/sim/exchange/exchangeEvents.js';
import type { PlaceOrderParams } from '../../src/sim/exchange/exchangeRecords.js';
import type { SimEvent } from '../../src/sim/simContext.js';
import {
  attachSimWebSocket,
  type SimWebSocket,
  type SimWebSocketOptions,
} from '../../src/sim/ws/attachSimWebSocket.js';
import type { SimWsContext } from '../../src/sim/ws/simWsContext.js';
import { channelFrameSchemas, controlFrameSchema } from '../../src/venue/schemas/wsFrames.js';
import { channelNameSchema } from '../../src/venue/schemas/wsFramesFields.js';

/**
 * The WebSocket server on a real HTTP server (127.0.0.1, port 0) over the real exchange core and
 * chain state, wired the way `startSim` wires them: actions are stamped into the pending block,
 * blocks publish the block event first, then what the block produced.
 */
export interface WsSim {
  readonly url: string;
  readonly clock: ManualClock;
  readonly chain: SimChainState;
  readonly exchange: Exchange;
  readonly ws: SimWebSocket;
  readonly ctx: SimWsContext;
  /** Runs an exchange action as one mined transaction and publishes its events. */
  act(run: (nowMs: number) => { readonly events: readonly ExchangeEvent[] }): void;
  deposit(account: Address, amountUsdc?: string): void;
  place(account: Address, params: Partial<PlaceOrderParams> & Pick<PlaceOrderParams, 'side' | 'price_ticks'>): void;
  mineBlock(): number;
  /** Publishes one simulator event as the chain side would (e.g. a signer revocation). */
  emit(event: SimEvent): void;
  close(): Promise<void>;
}

export async function startWsSim(options: Partial<SimWebSocketOptions> = {}): Promise<WsSim> {
  const clock = new ManualClock();
  const chain = new SimChainState({ clock, seed: 7, registrationLagMs: 0 });
  const exchange = new Exchange({ seed: 7, makers: false });
  const events = new Subject<SimEvent>();
  const signingContext = createSigningContext(
    parseDomain({
      name: 'PerpsAuthorization',
      version: '1',
      chain_id: 31337,
      verifying_contract: '0x00000000000000000000000000000000000000a1',
    }),
    '0x00000000000000000000000000000000000000b2',
  );
  const ctx: SimWsContext = { clock, chain, exchange, events, signingContext };
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const ws = attachSimWebSocket(server, ctx, { path: '/ws', ...options });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const act: WsSim['act'] = (run) => {
    const stamp = chain.blocks.stampAction(clock.now());
    for (const event of run(clock.now()).events) events.next({ type: 'exchange', event, ...stamp });
  };
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    clock,
    chain,
    exchange,
    ws,
    ctx,
    act,
    deposit: (account, amountUsdc = '100000') => act(() => exchange.deposit(account, amountUsdc)),
    place: (account, params) =>
      act((now) =>
        exchange.placeOrder(
          account,
          {
            market_id: 1,
            size_steps: 100,
            post_only: false,
            reduce_only: false,
            stp_mode: 0,
            order_type: 1,
            time_in_force: 0,
            ...params,
          },
          now,
        ),
      ),
    mineBlock: () => {
      const stamp = chain.blocks.mine(clock.now());
      const result = exchange.advanceBlock(stamp.blockNumber, stamp.timestampMs);
      events.next({ type: 'block', ...stamp });
      for (const event of result.events) events.next({ type: 'exchange', event, ...stamp });
      return stamp.blockNumber;
    },
    emit: (event) => events.next(event),
    close: async () => {
      await ws.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A plain `ws` client that records every frame and can wait for one matching a predicate. Every
 * frame is also parsed with the venue client's schema for it; failures are collected.
 */
export class FrameRecorder {
  readonly frames: Record<string, unknown>[] = [];
  readonly schemaFailures: string[] = [];
  private waiters: { match: (f: Record<string, unknown>) => boolean; resolve: (f: Record<string, unknown>) => void }[] =
    [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      this.frames.push(frame);
      const failure = schemaFailure(frame);
      if (failure !== undefined) this.schemaFailures.push(failure);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(frame)) {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(frame);
        }
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<FrameRecorder> {
    const socket = new WebSocket(url, options);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new FrameRecorder(socket);
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first recorded frame (from `from` on) matching, or the next one to arrive. */
  next(match: (f: Record<string, unknown>) => boolean, from = 0, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    const seen = this.frames.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** Sends and returns the reply matching `match` among frames after the send. */
  request(frame: unknown, match: (f: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const from = this.frames.length;
    this.send(frame);
    return this.next(match, from);
  }

  ofChannel(channel: string): Record<string, unknown>[] {
    return this.frames.filter(
      (f) =>
        f['channel'] === channel &&
        typeof f['type'] === 'string' &&
        f['type'] !== 'subscribed' &&
        f['type'] !== 'error' &&
        f['type'] !== 'unsubscribed',
    );
  }

  close(): void {
    this.socket.terminate();
  }
}

/** Why the client's schemas refuse `frame`, or undefined when they accept it. */
export function schemaFailure(frame: Record<string, unknown>): string | undefined {
  const channel = channelNameSchema.safeParse(frame['channel']);
  const isData = channel.success && (frame['type'] === 'snapshot' || frame['type'] === 'update');
  const result = isData ? channelFrameSchemas[channel.data].safeParse(frame) : controlFrameSchema.safeParse(frame);
  return result.success ? undefined : `${JSON.stringify(frame).slice(0, 300)}: ${result.error.message.slice(0, 300)}`;
}

export const isAck =
  (channel: string) =>
  (f: Record<string, unknown>): boolean =>
    f['type'] === 'subscribed' && f['channel'] === channel;
export const isError = (f: Record<string, unknown>): boolean => f['type'] === 'error';
export const isAuthReply = (f: Record<string, unknown>): boolean => f['method'] === 'auth_v2' || f['method'] === 'auth';

/**
 * Lets frames the server already sent arrive: a round trip whose reply is an error about a channel
 * no test uses, queued behind everything the server published before it read the frame.
 */
export async function settle(client: FrameRecorder): Promise<void> {
  await client.request(
    { method: 'unsubscribe', params: { channel: 'barrier' } },
    (f) => f['type'] === 'error' && f['channel'] === 'barrier',
  );
}
