import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { systemClock, type Clock } from '../../core/clock.js';
import type { SimWebSocketHandle } from '../simContext.js';
import { ClientFrameRouter } from './clientFrameRouter.js';
import { runPingLoop } from './pingLoop.js';
import { positiveInteger } from './positiveInteger.js';
import { SimEventBatcher } from './simEventBatcher.js';
import { SimWsAcceptor } from './simWsAcceptor.js';
import type { ConnectionLimits } from './simWsConnection.js';
import type { SimWsContext } from './simWsContext.js';
import { SimWsHub } from './simWsHub.js';
import { WsStallControl } from './wsStallControl.js';
import type { WireDeparture } from './wireDepartures.js';
import { detach } from '../../core/detach.js';

export interface SimWebSocketOptions {
  /** Upgrade path, e.g. "/ws". */
  readonly path: string;
  /** Protocol ping period; a client that has not answered the previous ping is dropped. Default 15 s. */
  readonly pingIntervalMs?: number;
  /** Real time for pings, stalls and the inbound rate limit (not the simulated clock). */
  readonly timers?: Clock;
  /** Default 10 frames per 1,000 ms (venue-facts). */
  readonly inboundFramesPerSecond?: number;
  /** Default 4 MiB. */
  readonly maxBufferedBytes?: number;
  /** Largest client frame accepted; larger closes the connection (1009). Default 64 KiB. */
  readonly maxPayloadBytes?: number;
  /** Where internal failures (a bug in a handler or the fan-out) are reported; never secrets. */
  readonly onError?: (error: unknown) => void;
  /** Parts of the wire sent in a departed shape on purpose (tests of drift detection); default none. */
  readonly wireDepartures?: readonly WireDeparture[];
}

export interface SimWebSocket extends SimWebSocketHandle {
  /** Drops every connection and stops serving. */
  close(): Promise<void>;
  /** Test control: every connection ends abruptly, as on a network drop. */
  dropAll(): void;
  /** Test control: the connections authenticated as `account` end abruptly. */
  dropAccount(account: string): number;
  /**
   * Test control: for `ms`, nothing is sent (frames are discarded, pings neither sent nor
   * answered) and nothing is closed. `setStalled(true)` does the same until `setStalled(false)`.
   */
  stall(ms: number): void;
  /** Open connections now. */
  connectionCount(): number;
  /** Frames discarded by stalls, summed over open connections. */
  discardedFrameCount(): number;
}

/**
 * The simulator's WebSocket endpoint on an existing HTTP server: subscriptions, auth_v2 and JWT
 * auth, the public and private channels, protocol pings, per-connection limits and the test
 * controls. `startSim` calls it with the simulator context. Each job is its own part: the
 * acceptor wires sockets to connections, the router takes their frames, the batcher feeds the
 * hub the simulator's events, the ping loop is the heartbeat and the stall control the stalls.
 */
export function attachSimWebSocket(httpServer: Server, ctx: SimWsContext, options: SimWebSocketOptions): SimWebSocket {
  const timers = options.timers ?? systemClock;
  const pingIntervalMs = positiveInteger(options.pingIntervalMs ?? 15_000, 'pingIntervalMs');
  const limits = connectionLimits(options);
  const onError = options.onError ?? (() => {});
  const hub = new SimWsHub(ctx, options.wireDepartures);
  const wss = new WebSocketServer({
    noServer: true,
    autoPong: false,
    maxPayload: options.maxPayloadBytes ?? 64 * 1024,
  });
  const lifetime = new AbortController();
  const stalls = new WsStallControl(hub, timers, lifetime.signal);
  const frames = new ClientFrameRouter(ctx, hub, onError);
  const acceptor = new SimWsAcceptor({ hub, limits, timers, stalls, frames });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path) return; // another upgrade handler may own this path
    wss.handleUpgrade(request, socket, head, (ws) => acceptor.accept(ws));
  };
  httpServer.on('upgrade', onUpgrade);
  const batcher = new SimEventBatcher(hub, onError);
  const subscription = ctx.events.subscribe((event) => batcher.push(event));
  detach(runPingLoop({ connections: hub, timers, intervalMs: pingIntervalMs, stalls }, lifetime.signal), onError);

  const close = async (): Promise<void> => {
    lifetime.abort();
    subscription.unsubscribe();
    httpServer.off('upgrade', onUpgrade);
    for (const connection of hub.all()) connection.terminate('server closing');
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
  return controlsOf(hub, stalls, frames, close);
}

/** The per-connection limits, defaults applied (each checked before anything is attached). */
function connectionLimits(options: SimWebSocketOptions): ConnectionLimits {
  return {
    inboundFrames: positiveInteger(options.inboundFramesPerSecond ?? 10, 'inboundFramesPerSecond'),
    inboundWindowMs: 1_000,
    maxBufferedBytes: positiveInteger(options.maxBufferedBytes ?? 4 * 1024 * 1024, 'maxBufferedBytes'),
  };
}

/** The handle `startSim` and the test controls hold: drops, stalls, the subscribe fault, counts. */
function controlsOf(
  hub: SimWsHub,
  stalls: WsStallControl,
  frames: ClientFrameRouter,
  close: () => Promise<void>,
): SimWebSocket {
  const dropAll = (): number => {
    const all = hub.all();
    for (const connection of all) connection.terminate('dropped by control');
    return all.length;
  };
  return {
    close,
    dropAll: () => {
      dropAll();
    },
    dropConnections: dropAll,
    setStalled: (stalled) => stalls.setStalled(stalled),
    setSubscribeFault: (fault) => {
      frames.subscribeFault = fault;
    },
    dropAccount: (account) => {
      const targets = hub.ofAccount(account);
      for (const connection of targets) connection.terminate('dropped by control');
      return targets.length;
    },
    stall: (ms) => stalls.stall(ms),
    connectionCount: () => hub.size,
    discardedFrameCount: () => hub.all().reduce((sum, c) => sum + c.discardedFrames, 0),
  };
}
