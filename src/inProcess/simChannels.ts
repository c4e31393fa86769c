import { BehaviorSubject, Observable, type Subscription } from 'rxjs';
import type { WebSocket } from 'ws';
import type { Address } from '../core/address.js';
import type { Clock } from '../core/clock.js';
import type { ConnectionStatusView } from '../engine/admission/followConnection.js';
import type { SimRuntime } from '../sim/simRuntime.js';
import { SimEventBatcher } from '../sim/ws/simEventBatcher.js';
import { SimWsConnection } from '../sim/ws/simWsConnection.js';
import { SimWsHub } from '../sim/ws/simWsHub.js';
import type { ChannelMessages } from '../venue/schemas/wsFrames.js';
import type { ChannelName } from '../venue/schemas/wsFramesFields.js';
import { ChannelRegistry, type ChannelSink } from '../venue/ws/channelRegistry.js';
import { decodeServerFrame, decodeServerValue, type DecodedServerFrame } from '../venue/ws/decodeServerFrame.js';

export interface SimChannelsOptions {
  readonly runtime: SimRuntime;
  /** The account whose private channels (orders, positions, fills, account) are delivered. */
  readonly account: Address;
  readonly clock: Clock;
  /** One-way delay of a frame in virtual ms. */
  readonly latencyMs: () => number;
  /** A frame the client's decoders refused: a bug in the simulator or the kit. */
  readonly onError: (error: Error) => void;
}

/** Per-connection limits: the kit sends no client frames, and its one connection reads every frame at once. */
const UNLIMITED = { inboundFrames: 1, inboundWindowMs: 1_000, maxBufferedBytes: Infinity };

/**
 * The venue's WebSocket channels in one process: the simulator's own fan-out (`SimWsHub`, the same
 * frame builders and event batching the simulator's WebSocket uses) writes text frames into one
 * connection subscribed to the channels someone reads (as the WebSocket client subscribes the
 * wire), and the client's decoder (`decodeServerFrame`) and per-subscriber market filter
 * (`ChannelRegistry`) read them. What the kit's engine and strategy see are the frames a bot on
 * the simulator would receive, minus the socket.
 */
export class SimChannels {
  /** The connection's state as the WebSocket client reports it: the engine goes degraded while it is down. */
  readonly connection$ = new BehaviorSubject<ConnectionStatusView>({ status: 'authenticated' });
  private readonly registry = new ChannelRegistry();
  private readonly hub: SimWsHub;
  private readonly connection: SimWsConnection;
  private readonly events: Subscription;

  constructor(private readonly o: SimChannelsOptions) {
    this.hub = new SimWsHub(o.runtime);
    this.connection = new SimWsConnection(1, this.socket(), UNLIMITED, o.clock, () => {});
    // No JSON between the simulator and the bot when a frame arrives at once: the bot's decoders read
    // the frame object the hub built, as they would read it parsed from the wire. With latency a
    // frame waits, so it travels as text, fixed when it was sent.
    this.connection.readFramesAsObjects((frame) =>
      this.o.latencyMs() <= 0 ? this.deliver(decodeServerValue(frame)) : this.receive(JSON.stringify(frame)),
    );
    this.hub.add(this.connection);
    this.hub.pin(this.connection, o.account);
    const batcher = new SimEventBatcher(this.hub, (error) => o.onError(asError(error)));
    this.events = o.runtime.events.subscribe((event) => batcher.push(event));
  }

  /** A channel's messages, filtered to `marketIds` as the WebSocket client filters them. */
  channel<C extends ChannelName>(
    name: C,
    options: { readonly marketIds?: readonly number[] } = {},
  ): Observable<ChannelMessages[C]> {
    return new Observable<ChannelMessages[C]>((subscriber) => {
      const ids = options.marketIds === undefined || options.marketIds.length === 0 ? undefined : options.marketIds;
      const sink: ChannelSink = {
        channel: name,
        marketIds: ids === undefined ? undefined : new Set(ids),
        next: (m) => subscriber.next(m as ChannelMessages[C]),
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      };
      const first = !this.registry.has(name);
      this.registry.add(sink);
      // A channel nobody reads is not sent (no frame built, serialised and decoded for nothing):
      // the market filter stays with the registry, as the client's union would carry it.
      if (first) this.connection.subscriptions.set(name, []);
      // As on the venue: a subscription starts with the channel's snapshot (the book: every new one).
      if (first || name === 'orderbook') this.hub.sendSnapshot(this.connection, name);
      return () => {
        this.registry.remove(sink);
        if (!this.registry.has(name)) this.connection.subscriptions.delete(name);
      };
    });
  }

  /** A fresh snapshot of the channel (the order book asks after a checksum mismatch). */
  resubscribe(name: ChannelName): void {
    this.hub.sendSnapshot(this.connection, name);
  }

  /** The connection drops: frames sent meanwhile are lost, as on a real outage, until `restore`. */
  drop(reason: string): void {
    this.connection.stall();
    this.connection$.next({ status: 'reconnecting', reason });
  }

  /** The connection is back: the channels with snapshots start again from them, then it is authenticated. */
  restore(): void {
    this.connection.resume();
    for (const channel of ['orderbook', 'orders', 'positions', 'account'] as const)
      if (this.registry.has(channel)) this.hub.sendSnapshot(this.connection, channel);
    this.connection$.next({ status: 'authenticated' });
  }

  close(): void {
    this.connection$.complete();
    this.events.unsubscribe();
    this.registry.completeAll();
  }

  /** The connection's socket: every frame the hub sends is decoded and delivered. */
  private socket(): WebSocket {
    const socket = {
      bufferedAmount: 0,
      send: (text: string) => this.receive(text),
      ping: () => {},
      pong: () => {},
      terminate: () => {},
      close: () => {},
    };
    return socket as unknown as WebSocket;
  }

  private receive(text: string): void {
    const ms = this.o.latencyMs();
    if (ms <= 0) return this.deliver(decodeServerFrame(text));
    this.o.clock.sleep(ms).then(
      () => this.deliver(decodeServerFrame(text)),
      (error: unknown) => this.o.onError(asError(error)),
    );
  }

  private deliver(decoded: DecodedServerFrame): void {
    if (decoded.kind === 'malformed') {
      this.o.onError(new Error(`the kit's decoder refused a simulator frame: ${decoded.reason}`));
      return;
    }
    if (decoded.kind === 'channel') this.registry.deliver(decoded.message);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
