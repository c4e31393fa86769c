import { BehaviorSubject, Observable, share, Subject } from 'rxjs';
import { systemClock, type Clock } from '../../core/clock.js';
import { checkRange } from '../../core/integerRange.js';
import { exponentialBackoff } from '../../core/withRetry.js';
import type { ChannelMessage, ChannelMessages, ControlFrame } from '../schemas/wsFrames.js';
import { errorFrameChannel } from '../schemas/wsFramesControl.js';
import {
  asChannelName,
  CHANNELS,
  isPrivateChannel,
  MARKET_ID_MAX,
  type ChannelName,
} from '../schemas/wsFramesFields.js';
import { AUTH_REPLY_TIMEOUT_MS, type WsAuthenticator } from './authenticateWs.js';
import { ChannelRegistry, type ChannelSink } from './channelRegistry.js';
import { checkKnownMarkets } from './checkKnownMarkets.js';
import { checkSubscribeAck } from './checkSubscribeAck.js';
import { VenueMarketList } from './venueMarketList.js';
import type { ConnectionState, ConnectionStatus } from './connectionState.js';
import { decodeServerFrame } from './decodeServerFrame.js';
import { runReconnectLoop } from './reconnectLoop.js';
import { SessionAuth } from './sessionAuth.js';
import { channelRefusedError, clientClosedError, VenueWsError } from './venueWsError.js';
import { WireSubscriptions } from './wireSubscriptions.js';
import { watchStaleness } from './watchStaleness.js';
import { MAX_VENUE_FRAME_BYTES } from './maxFrameBytes.js';
import { OracleBlockGaps, type FramesLost } from './oracleBlockGaps.js';
import { OVERSIZED_FRAME_REASON, WsSession } from './wsSession.js';
import { silentLogger, type Logger } from '../../core/logger.js';
import { detach } from '../../core/detach.js';
import { wireFailureShapeKey, type WireDecodeFailure, type WireDecodeFailureSink } from '../wireDecodeFailure.js';

export type { ConnectionState, ConnectionStatus } from './connectionState.js';

/** A frame past MAX_VENUE_FRAME_BYTES, as the drift monitor counts and samples it. */
const OVERSIZED_FRAME: WireDecodeFailure = {
  source: 'ws:frame',
  field: '(frame)',
  expected: `a frame of at most ${MAX_VENUE_FRAME_BYTES} bytes`,
  received: 'a larger frame (refused unread; the connection was replaced)',
};

export interface WsClientMetrics {
  malformedFrames: number;
  reconnects: number;
  /** Authentications tried again after a transient failure (a nonce or status read that failed). */
  authRetries: number;
  framesReceived: number;
  /** Frames handed to the rate-limited queue. */
  framesQueued: number;
}

export interface VenueWsClientOptions {
  readonly url: string;
  /** Market ids of the venue (GET /v1/markets); requested ids are checked against it. */
  readonly knownMarketIds: () => Promise<readonly number[]>;
  readonly authenticator?: WsAuthenticator;
  readonly logger?: Pick<Logger, 'debug' | 'warn'>;
  readonly clock?: Clock;
  /** Block time; the oracle channel broadcasts once per block. */
  readonly blockMs?: number;
  /** Reconnect when no oracle message came for this many block times; 0 disables the watchdog. */
  readonly staleAfterBlocks?: number;
  readonly reconnect?: {
    readonly baseMs?: number;
    readonly maxMs?: number;
    readonly jitter?: number;
    readonly random?: () => number;
  };
  readonly maxFramesPerSecond?: number;
  /** How long to wait for an auth_v2 reply before sending a new one (a lost reply is not a refusal); default 1 s. */
  readonly authReplyTimeoutMs?: number;
  /** Where frames the decoders refuse are reported (the runtime's wire-drift monitor). */
  readonly onDecodeFailure?: WireDecodeFailureSink;
  /** Told of every text frame of the current connection as received, before it is decoded (the flight recorder). */
  readonly onFrame?: (text: string) => void;
}

export interface ChannelOptions {
  /** Absent or empty = all markets. */
  readonly marketIds?: readonly number[];
}

/**
 * One multiplexed WebSocket connection to the venue, exposed as RxJS streams. `channel()` returns a
 * shared Observable: the first subscriber causes a `subscribe` frame, the last unsubscribe an
 * `unsubscribe`. Reconnects (server close, socket error, oracle silence) are hidden from
 * subscribers: the client re-authenticates and resubscribes every live channel and reports the
 * change on `connectionState$` only. Subscribers see an error only for their own channel's
 * failures (refused filter, unknown market, auth that cannot succeed), and completion only on
 * `close()`.
 */
export class VenueWsClient {
  readonly connectionState$: Observable<ConnectionState>;
  /**
   * Frames lost on a connection that stayed open: the oracle's block numbers jumped (a stalled
   * stream discards frames). What was lost is not resent, and no reconnect follows to reconcile it.
   */
  readonly framesLost$: Observable<FramesLost>;
  private readonly framesLost = new Subject<FramesLost>();
  /**
   * When a connection's first oracle frame arrived (ms, the client's clock): from then on a loss
   * shows as a gap in its blocks, while what came before on it (a stall right after connecting)
   * would show none. The engine reconciles over that start unless it read the venue after it.
   */
  readonly streamCounted$: Observable<number>;
  private readonly streamCounted = new Subject<number>();
  private readonly blockGaps = new OracleBlockGaps();
  private readonly state = new BehaviorSubject<ConnectionState>({ status: 'connecting', connections: 0 });
  private readonly registry = new ChannelRegistry();
  private readonly shared = new Map<string, Observable<ChannelMessage>>();
  private readonly clock: Clock;
  /** Market ids of the venue as last read: an ack may list them all to mean "all markets". */
  private readonly venueMarkets: VenueMarketList;
  private readonly logger: Pick<Logger, 'debug' | 'warn'>;
  private readonly lifetime = new AbortController();
  private readonly counters: WsClientMetrics = {
    malformedFrames: 0,
    reconnects: 0,
    authRetries: 0,
    framesReceived: 0,
    framesQueued: 0,
  };
  /** Shapes of dropped frames logged already, when no sink takes them. */
  private readonly loggedShapes = new Set<string>();
  private readonly backoff: (attempt: number) => number;
  /** 0 = no watchdog (disabled by option, or the oracle heartbeat subscription failed). */
  private staleAfterMs: number;

  // Per-connection state, reset whenever a connection ends.
  private session: WsSession | undefined;
  private readonly auth: SessionAuth;
  private readonly wire = new WireSubscriptions();
  private channelFramesThisSession = 0;
  /** The venue has sent something on this connection: the stream is live, an auth reply will come. */
  private heardThisSession = false;
  /** Authentication waits for the first frame of the connection (see `startAuth`). */
  private authWanted = false;
  private lastOracleAt = 0;
  private connections = 0;
  private closed = false;

  constructor(private readonly options: VenueWsClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.venueMarkets = new VenueMarketList(options.knownMarketIds);
    this.logger = options.logger ?? silentLogger;
    this.backoff = exponentialBackoff({
      // A connection that worked comes back fast (50-100 ms); repeated failures back off to 30 s.
      baseMs: options.reconnect?.baseMs ?? 100,
      maxMs: options.reconnect?.maxMs ?? 30_000,
      ...(options.reconnect?.jitter === undefined ? {} : { jitter: options.reconnect.jitter }),
      ...(options.reconnect?.random === undefined ? {} : { random: options.reconnect.random }),
    });
    this.staleAfterMs = (options.blockMs ?? 1000) * (options.staleAfterBlocks ?? 5);
    this.connectionState$ = this.state.asObservable();
    this.framesLost$ = this.framesLost.asObservable();
    this.streamCounted$ = this.streamCounted.asObservable();
    this.auth = new SessionAuth({
      authenticator: options.authenticator,
      clock: this.clock,
      signal: this.lifetime.signal,
      logger: this.logger,
      replyTimeoutMs: options.authReplyTimeoutMs ?? AUTH_REPLY_TIMEOUT_MS,
      send: (frame) => {
        if (this.session !== undefined) this.send(this.session, frame);
      },
      onAuthenticated: () => {
        this.setState('authenticated');
        for (const channel of this.registry.channels()) if (isPrivateChannel(channel)) this.syncChannel(channel);
      },
      onFailed: (error) => {
        for (const channel of this.registry.channels())
          if (isPrivateChannel(channel)) this.registry.fail(channel, error);
      },
      onRetrying: (error, delayMs) => {
        this.counters.authRetries++;
        this.setState('open', `authentication failed transiently (${describe(error)}); retrying in ${delayMs} ms`);
      },
    });
    if (this.staleAfterMs > 0) this.registry.add(this.heartbeatSink());
    // The loop ends only when the client closes; anything else is a fault that ends the stream,
    // which subscribers must see as a closed connection rather than a silent one.
    detach(this.run(), (error) => {
      this.logger.warn({ err: describe(error) }, 'venue WebSocket reconnect loop failed; the connection is closed');
      this.setState('closed', `reconnect loop failed: ${describe(error)}`);
    });
  }

  /** Frames received so far (a plain read: `metrics` copies every counter). */
  get framesReceived(): number {
    return this.counters.framesReceived;
  }

  get metrics(): Readonly<WsClientMetrics> {
    return { ...this.counters };
  }

  channel<C extends ChannelName>(name: C, options: ChannelOptions = {}): Observable<ChannelMessages[C]> {
    if (!(CHANNELS as readonly string[]).includes(name)) {
      throw new VenueWsError(`unknown channel ${String(name)}`, {
        code: 'WS_CHANNEL_REFUSED',
        details: { channel: name },
        hints: [`use one of ${CHANNELS.join(', ')}`],
      });
    }
    const ids = normaliseIds(options.marketIds);
    const key = `${name}:${ids?.join(',') ?? '*'}`;
    const cached = this.shared.get(key);
    // Only messages of channel `name` are ever delivered to this key's sinks.
    if (cached !== undefined) return cached as Observable<ChannelMessages[C]>;
    const source = new Observable<ChannelMessage>((subscriber) => {
      if (this.closed) {
        subscriber.error(clientClosedError());
        return undefined;
      }
      let sink: ChannelSink | undefined;
      let cancelled = false;
      const attach = (): void => {
        if (cancelled) return;
        if (this.closed) {
          subscriber.complete();
          return;
        }
        sink = {
          channel: name,
          marketIds: ids === undefined ? undefined : new Set(ids),
          next: (m) => subscriber.next(m),
          error: (e) => subscriber.error(e),
          complete: () => subscriber.complete(),
        };
        this.registry.add(sink);
        this.syncChannel(name);
      };
      if (ids === undefined) attach();
      else {
        checkKnownMarkets(name, ids, this.venueMarkets.read).then(attach, (error: unknown) => {
          if (!cancelled) subscriber.error(error);
        });
      }
      return () => {
        cancelled = true;
        if (sink === undefined) return;
        this.registry.remove(sink);
        this.syncChannel(name);
      };
    }).pipe(share());
    this.shared.set(key, source);
    return source as Observable<ChannelMessages[C]>;
  }

  /** Drops and renews the channel's subscription, so the venue sends fresh snapshots. */
  resubscribe(name: ChannelName): void {
    const session = this.session;
    if (session === undefined || !this.wire.has(name)) return;
    this.send(session, { method: 'unsubscribe', params: { channel: name } });
    this.wire.renew(name);
    this.syncChannel(name);
  }

  /** Ends the connection for good and completes every stream; all of it happens before this returns. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.lifetime.abort(clientClosedError());
    this.session?.end('closed by client');
    this.registry.completeAll();
    this.state.next({ status: 'closed', reason: 'closed by client', connections: this.connections });
    this.state.complete();
    this.framesLost.complete();
    this.streamCounted.complete();
    return Promise.resolve();
  }

  private run(): Promise<void> {
    return runReconnectLoop({
      open: () => this.openSession(),
      live: (session) => this.runSession(session),
      backoff: this.backoff,
      clock: this.clock,
      signal: this.lifetime.signal,
      onConnectFailed: (error, delayMs) => {
        this.logger.warn({ err: describe(error), delayMs }, 'venue WebSocket connection failed; retrying');
        this.setState('reconnecting', `connection failed: ${describe(error)}`);
      },
      onDropped: (reason, delayMs) => {
        this.counters.reconnects++;
        this.logger.warn({ reason, delayMs }, 'venue WebSocket connection lost; reconnecting');
        this.setState('reconnecting', reason);
      },
    });
  }

  private async openSession(): Promise<WsSession> {
    const opened = await WsSession.open({
      url: this.options.url,
      clock: this.clock,
      maxFramesPerSecond: this.options.maxFramesPerSecond ?? 10,
      // Only the current connection's frames count: not one still opening, nor one replaced.
      onText: (text, session) => {
        if (session !== this.session) return;
        this.options.onFrame?.(text);
        this.onText(session, text);
      },
      onOversizedFrame: () => {
        this.counters.malformedFrames++;
        this.reportMalformed(OVERSIZED_FRAME, OVERSIZED_FRAME_REASON, '(refused unread)');
      },
    });
    if (this.closed) {
      opened.end('closed by client');
      throw clientClosedError();
    }
    return opened;
  }

  private async runSession(session: WsSession): Promise<{ reason: string; deliveredData: boolean }> {
    this.session = session;
    this.connections++;
    this.channelFramesThisSession = 0;
    this.heardThisSession = false;
    this.authWanted = false;
    this.lastOracleAt = this.clock.now();
    this.blockGaps.reset();
    this.setState('open');
    if (this.staleAfterMs > 0) {
      detach(
        watchStaleness({
          session,
          clock: this.clock,
          limitMs: () => this.staleAfterMs,
          lastHeardAt: () => this.lastOracleAt,
        }),
        (error) =>
          this.logger.warn({ err: describe(error) }, 'staleness watch failed; the connection goes on unwatched'),
      );
    }
    // Public subscriptions first: their acknowledgements are the first sign that the stream is live.
    for (const channel of this.registry.channels()) if (!isPrivateChannel(channel)) this.syncChannel(channel);
    if (this.registry.channels().some(isPrivateChannel)) this.startAuth();
    const reason = await session.ended;
    this.resetConnectionState(reason);
    return { reason, deliveredData: this.channelFramesThisSession > 0 };
  }

  private resetConnectionState(reason: string): void {
    this.session = undefined;
    this.wire.reset();
    this.auth.reset(reason);
  }

  private setState(status: ConnectionStatus, reason?: string): void {
    if (this.closed) return;
    this.state.next({ status, ...(reason === undefined ? {} : { reason }), connections: this.connections });
  }

  private send(session: WsSession, frame: object): void {
    this.counters.framesQueued++;
    session.send(frame);
  }

  /** Brings the wire subscription of `channel` in line with its local consumers. */
  private syncChannel(channel: ChannelName): void {
    const session = this.session;
    if (session === undefined || !session.open) return;
    const wanted = this.registry.has(channel) ? this.registry.requestedMarkets(channel) : null;
    if (wanted !== null && isPrivateChannel(channel) && !this.auth.isAuthenticated) {
      this.startAuth();
      return;
    }
    const account = this.options.authenticator?.account;
    const frame = this.wire.frameFor(
      channel,
      wanted,
      channel === 'account' && account !== undefined ? [account] : undefined,
    );
    if (frame !== undefined) this.send(session, frame);
  }

  /**
   * Starts authentication once the connection has shown it is live. A stalled venue discards what
   * it would send, auth replies included (a reconnect can land in a stall), so with the oracle
   * heartbeat on, auth_v2 waits for the connection's first frame (an acknowledgement, normally one
   * round trip) rather than being lost; a connection that stays silent is replaced by the staleness
   * watch. Without the heartbeat nothing may come before auth, so it starts at once.
   */
  private startAuth(): void {
    if (this.heardThisSession || this.staleAfterMs === 0) this.auth.start();
    else this.authWanted = true;
  }

  private onText(session: WsSession, text: string): void {
    this.counters.framesReceived++;
    if (!this.heardThisSession && session === this.session) {
      this.heardThisSession = true;
      if (this.authWanted) {
        this.authWanted = false;
        this.auth.start();
      }
    }
    const decoded = decodeServerFrame(text, this.registry.decodedMarkets('oracle'));
    switch (decoded.kind) {
      case 'malformed':
        this.counters.malformedFrames++;
        this.reportMalformed(decoded.failure, decoded.reason, text);
        return;
      case 'channel':
        this.channelFramesThisSession++;
        if (decoded.message.channel === 'oracle') this.heardOracle(decoded.message.blockNumber);
        this.registry.deliver(decoded.message);
        return;
      case 'control':
        this.onControl(session, decoded.frame);
        return;
    }
  }

  /**
   * A frame the decoders refused (or one too large to read) is dropped, never thrown, and always
   * counted (`malformedFrames`): with a sink it is logged once per shape and sampled there (the
   * runtime's drift monitor); without one it is logged here, once per shape too.
   */
  private reportMalformed(failure: WireDecodeFailure, reason: string, text: string): void {
    const sink = this.options.onDecodeFailure;
    if (sink === undefined) {
      const shape = wireFailureShapeKey(failure);
      if (this.loggedShapes.has(shape) || this.loggedShapes.size >= 256) return;
      this.loggedShapes.add(shape);
      this.logger.warn(
        { reason, frame: text.slice(0, 200) },
        'malformed venue WebSocket frame dropped (said once per shape; malformedFrames counts them all)',
      );
      return;
    }
    let raw: unknown = text;
    try {
      raw = JSON.parse(text);
    } catch {
      // Not JSON: the text itself is the sample.
    }
    sink(failure, raw);
  }

  private onControl(session: WsSession, frame: ControlFrame): void {
    // A refusing ack and an error frame are one thing said two ways (venue-wire.md §3).
    if ('type' in frame && (frame.type === 'error' || (frame.type === 'subscribed' && frame.status === 'error'))) {
      this.onRefused(frame);
      return;
    }
    if ('type' in frame && frame.type === 'subscribed') {
      const channel = asChannelName(frame.channel);
      const expected = channel === undefined ? undefined : this.wire.takeAck(channel);
      if (channel === undefined || expected === undefined) {
        this.logger.debug({ channel: frame.channel }, 'subscribe ack without a pending subscribe');
        return;
      }
      if (!this.registry.has(channel)) return; // every consumer left while the ack was in flight
      const error = checkSubscribeAck(channel, expected.requested, frame.data?.market_ids, this.venueMarkets.latest);
      if (error !== undefined) {
        this.logger.warn({ err: error.message }, 'subscribe ack does not match the request');
        this.registry.fail(channel, error);
        this.syncChannel(channel);
      }
      return;
    }
    if ('type' in frame && frame.type === 'unsubscribed') return;
    if ('method' in frame && (frame.method === 'auth_v2' || frame.method === 'auth')) {
      if (session !== this.session || !this.auth.onReply(frame)) {
        this.logger.debug({ status: frame.status }, 'auth reply with no auth_v2 in flight');
      }
    }
  }

  /** A subscribe the venue refused: its consumers fail with the venue's words. */
  private onRefused(frame: { readonly channel?: string | undefined; readonly message?: string | undefined }): void {
    const channel = asChannelName(errorFrameChannel(frame));
    const message = frame.message ?? 'subscribe refused (no message)';
    this.logger.warn({ serverMessage: message, channel }, 'venue WebSocket refusal');
    if (channel === undefined) return;
    this.wire.forget(channel);
    this.registry.fail(channel, channelRefusedError(channel, message, isPrivateChannel(channel)));
  }

  /** An oracle frame arrived: the staleness watch's clock; the blocks counted (from the first) find lost frames. */
  private heardOracle(blockNumber: number): void {
    this.lastOracleAt = this.clock.now();
    const first = !this.blockGaps.counting;
    const lost = this.blockGaps.note(blockNumber, this.lastOracleAt);
    if (first) this.streamCounted.next(this.lastOracleAt);
    if (lost === undefined) return;
    this.logger.warn(
      { ...lost, connection: this.connections },
      `the stream lost frames: no oracle frame for blocks ${lost.firstMissingBlock} to ${lost.lastMissingBlock}, on a connection that stayed open`,
    );
    this.framesLost.next(lost);
  }

  /** Oracle frames arrive once per block; the watchdog needs them even when no one else asks. */
  private heartbeatSink(): ChannelSink {
    return {
      channel: 'oracle',
      marketIds: undefined,
      readsContent: false,
      next: () => undefined,
      error: (error) => {
        // Without oracle frames every connection would look stale: stop watching rather than
        // reconnect forever.
        this.staleAfterMs = 0;
        this.logger.warn(
          { err: describe(error) },
          'oracle heartbeat subscription failed; staleness is no longer watched',
        );
      },
      complete: () => undefined,
    };
  }
}

function normaliseIds(ids: readonly number[] | undefined): number[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  for (const id of ids) checkRange(id, 0n, BigInt(MARKET_ID_MAX), 'marketIds[]');
  return [...new Set(ids)].sort((a, b) => a - b);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
