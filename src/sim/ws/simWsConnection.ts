import type { WebSocket } from 'ws';
import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { ChannelSubscriptions } from './channelSubscriptions.js';
import { InboundRateLimiter } from './inboundRateLimiter.js';

export interface ConnectionLimits {
  /** Client frames allowed per `inboundWindowMs`. */
  readonly inboundFrames: number;
  readonly inboundWindowMs: number;
  /** Bytes the socket may hold unsent before the client counts as too slow and is dropped. */
  readonly maxBufferedBytes: number;
}

/** Close codes (RFC 6455 range 4000+ is ours). */
export const CLOSE_SLOW_CLIENT = 4008;
/** The session key behind this connection's authentication was revoked. */
export const CLOSE_SIGNER_REVOKED = 4001;

/**
 * One client connection: its socket, authentication, subscriptions and outbound discipline.
 * Memory per connection is bounded: past a ceiling of unsent bytes the client is dropped instead
 * of buffered without bound. During a stall frames are discarded, as a stuck stream loses them
 * (the client's orderbook checksum then fails and it resubscribes).
 */
export class SimWsConnection {
  readonly subscriptions = new ChannelSubscriptions();
  /** Set by a successful auth; private channels deliver only this account's events. */
  account: Address | undefined;
  signer: Address | undefined;
  /** Cleared before each ping, set by the pong. */
  alive = true;
  private stalled = false;
  private discarded = 0;
  private closed = false;
  private readonly limiter: InboundRateLimiter;
  private objectReader: ((frame: object) => void) | undefined;

  constructor(
    readonly id: number,
    private readonly socket: WebSocket,
    private readonly limits: ConnectionLimits,
    timers: Clock,
    private readonly onDropped: (connection: SimWsConnection, reason: string) => void,
  ) {
    this.limiter = new InboundRateLimiter(limits.inboundFrames, limits.inboundWindowMs, timers);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  get isStalled(): boolean {
    return this.stalled;
  }

  /** Frames lost to stalls so far. */
  get discardedFrames(): number {
    return this.discarded;
  }

  get inboundFramesPerSecond(): number {
    return Math.round((this.limits.inboundFrames * 1_000) / this.limits.inboundWindowMs);
  }

  /** Counts an inbound frame against the rate limit. */
  admitInbound(): boolean {
    return this.limiter.allow();
  }

  /**
   * Hands this connection's frames to an in-process reader as the objects they are built as, with
   * no JSON between the simulator and its reader (a replay's bot: `SimChannels`); text a frame was
   * already serialised to for many connections is still sent as text.
   */
  readFramesAsObjects(reader: (frame: object) => void): void {
    this.objectReader = reader;
  }

  /** Whether `send` takes a frame object as it is (the hub then serialises nothing for it). */
  get takesObjects(): boolean {
    return this.objectReader !== undefined;
  }

  /** Sends a frame (an object, or text already serialised once for many connections). */
  send(frame: object | string): void {
    if (this.closed) return;
    if (this.stalled) {
      this.discarded++;
      return;
    }
    if (typeof frame === 'object' && this.objectReader !== undefined) this.objectReader(frame);
    else this.transmit(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Stops sending (frames are discarded) until `resume`; the socket stays open. */
  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
  }

  ping(): void {
    if (!this.closed) this.socket.ping();
  }

  /** Answers a client ping, except during a stall (a stalled venue answers nothing). */
  pong(data: Buffer): void {
    if (!this.closed && !this.stalled) this.socket.pong(data);
  }

  /** Ends the connection abruptly, as a network drop does (no close handshake). */
  terminate(reason: string): void {
    if (this.closed) return;
    this.markClosed();
    this.socket.terminate();
    this.onDropped(this, reason);
  }

  /** Closes with a code the client can read. */
  drop(code: number, reason: string): void {
    if (this.closed) return;
    this.markClosed();
    this.socket.close(code, reason);
    // A client too slow to read the close frame is not waited for.
    const socket = this.socket;
    setTimeout(() => socket.terminate(), 1_000).unref();
    this.onDropped(this, reason);
  }

  /** Called when the socket closed from the other side. */
  markClosed(): void {
    this.closed = true;
    this.subscriptions.clear();
  }

  private transmit(text: string): void {
    if (this.socket.bufferedAmount + text.length > this.limits.maxBufferedBytes) {
      this.drop(CLOSE_SLOW_CLIENT, 'client too slow: send buffer full');
      return;
    }
    this.socket.send(text);
  }
}
