import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { systemClock, type Clock } from '../../core/clock.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { statusErrorFrame } from './controlFrames.js';
import { handleClientFrame } from './handleClientFrame.js';
import { SimWsConnection, type ConnectionLimits } from './simWsConnection.js';
import type { SimEvent, SimWebSocketHandle } from '../simContext.js';
import type { SimWsContext } from './simWsContext.js';
import { SimWsHub } from './simWsHub.js';
import { applySubscribeFault, type SubscribeFault } from './subscribeFault.js';

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
 * controls. `startSim` calls it with the simulator context.
 */
export function attachSimWebSocket(httpServer: Server, ctx: SimWsContext, options: SimWebSocketOptions): SimWebSocket {
  const timers = options.timers ?? systemClock;
  const pingIntervalMs = positive(options.pingIntervalMs ?? 15_000, 'pingIntervalMs');
  const limits: ConnectionLimits = {
    inboundFrames: positive(options.inboundFramesPerSecond ?? 10, 'inboundFramesPerSecond'),
    inboundWindowMs: 1_000,
    maxBufferedBytes: positive(options.maxBufferedBytes ?? 4 * 1024 * 1024, 'maxBufferedBytes'),
  };
  const onError = options.onError ?? (() => {});
  const hub = new SimWsHub(ctx);
  const wss = new WebSocketServer({
    noServer: true,
    autoPong: false,
    maxPayload: options.maxPayloadBytes ?? 64 * 1024,
  });
  const lifetime = new AbortController();
  let stalledUntil = 0;
  let stalledIndefinitely = false;
  let subscribeFault: SubscribeFault | undefined;
  const isStalled = (): boolean => stalledIndefinitely || timers.now() < stalledUntil;
  let nextId = 1;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path) return; // another upgrade handler may own this path
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws));
  };
  httpServer.on('upgrade', onUpgrade);

  const accept = (ws: WebSocket): void => {
    const connection = new SimWsConnection(nextId++, ws, limits, timers, (c) => hub.remove(c));
    hub.add(connection);
    if (isStalled()) connection.stall();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        connection.send(statusErrorFrame('InvalidArgument', 'malformed frame: binary frames are not accepted'));
        return;
      }
      try {
        handleClientFrame(ctx, hub, connection, applySubscribeFault(rawText(data), subscribeFault));
      } catch (error) {
        // A bug in a handler must cost this frame only, never the server.
        onError(error);
        connection.send(statusErrorFrame('Internal', 'internal error handling frame'));
      }
    });
    ws.on('ping', (data: Buffer) => connection.pong(data));
    ws.on('pong', () => {
      connection.alive = true;
    });
    ws.on('close', () => {
      connection.markClosed();
      hub.remove(connection);
    });
    ws.on('error', () => {
      connection.terminate('socket error');
    });
  };

  // Events arrive one by one while the simulator mines; they are published at the end of the
  // synchronous run that produced them, so one transaction's book changes become one update.
  let pending: SimEvent[] = [];
  const flush = (): void => {
    const events = pending;
    pending = [];
    try {
      hub.publish(events);
    } catch (error) {
      // A fan-out failure must cost these frames only, never the simulator.
      onError(error);
    }
  };
  const subscription = ctx.events.subscribe((event) => {
    if (pending.length === 0) queueMicrotask(flush);
    pending.push(event);
  });

  void (async () => {
    for (;;) {
      try {
        await timers.sleep(pingIntervalMs, lifetime.signal);
      } catch {
        return;
      }
      if (isStalled()) continue;
      for (const connection of hub.all()) {
        if (!connection.alive) {
          connection.terminate('no pong to the last ping');
          continue;
        }
        connection.alive = false;
        connection.ping();
      }
    }
  })();

  const resumeAll = (): void => {
    for (const connection of hub.all()) {
      connection.alive = true; // silence during a stall is ours, not the client's
      connection.resume();
    }
  };
  const stall = (ms: number): void => {
    positive(ms, 'stall ms');
    stalledUntil = Math.max(stalledUntil, timers.now() + ms);
    for (const connection of hub.all()) connection.stall();
    void timers
      .sleep(ms, lifetime.signal)
      .then(() => {
        if (!isStalled()) resumeAll(); // otherwise a longer or indefinite stall still holds
      })
      .catch(() => undefined);
  };
  const setStalled = (stalled: boolean): void => {
    stalledIndefinitely = stalled;
    if (stalled) for (const connection of hub.all()) connection.stall();
    else {
      stalledUntil = 0;
      resumeAll();
    }
  };
  const dropAll = (): number => {
    const all = hub.all();
    for (const connection of all) connection.terminate('dropped by control');
    return all.length;
  };

  return {
    close: async () => {
      lifetime.abort();
      subscription.unsubscribe();
      httpServer.off('upgrade', onUpgrade);
      for (const connection of hub.all()) connection.terminate('server closing');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
    dropAll: () => {
      dropAll();
    },
    dropConnections: dropAll,
    setStalled,
    setSubscribeFault: (fault) => {
      subscribeFault = fault;
    },
    dropAccount: (account) => {
      const targets = hub.ofAccount(account);
      for (const connection of targets) connection.terminate('dropped by control');
      return targets.length;
    },
    stall,
    connectionCount: () => hub.size,
    discardedFrameCount: () => hub.all().reduce((sum, c) => sum + c.discardedFrames, 0),
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function positive(value: number, field: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new InvalidValueError(field, value, 'a positive integer');
  return value;
}
