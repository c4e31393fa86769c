import type { RawData, WebSocket } from 'ws';
import type { Clock } from '../../core/clock.js';
import type { ClientFrameRouter } from './clientFrameRouter.js';
import { SimWsConnection, type ConnectionLimits } from './simWsConnection.js';
import type { SimWsHub } from './simWsHub.js';

export interface SimWsAcceptorDeps {
  readonly hub: SimWsHub;
  readonly limits: ConnectionLimits;
  /** Real time for the connection's inbound rate limit. */
  readonly timers: Clock;
  /** A connection opened during a stall starts stalled. */
  readonly stalls: { readonly isStalled: boolean };
  readonly frames: ClientFrameRouter;
}

/**
 * Turns each upgraded socket into a `SimWsConnection` in the hub and ties the socket's events to
 * it: frames to the router, client pings answered, pongs marking it alive, close and error
 * removing it.
 */
export class SimWsAcceptor {
  private nextId = 1;

  constructor(private readonly deps: SimWsAcceptorDeps) {}

  accept(ws: WebSocket): void {
    const { hub, frames } = this.deps;
    const connection = new SimWsConnection(this.nextId++, ws, this.deps.limits, this.deps.timers, (c) => hub.remove(c));
    hub.add(connection);
    if (this.deps.stalls.isStalled) connection.stall();
    ws.on('message', (data: RawData, isBinary: boolean) => frames.route(connection, data, isBinary));
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
  }
}
