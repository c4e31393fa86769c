import type { Clock } from '../../core/clock.js';
import type { SimWsConnection } from './simWsConnection.js';

export interface PingLoopDeps {
  /** The open connections, looked up at each round. */
  readonly connections: { all(): readonly SimWsConnection[] };
  /** Real time, not the simulated clock. */
  readonly timers: Clock;
  readonly intervalMs: number;
  /** During a stall the server sends no pings, so nobody is judged on its silence. */
  readonly stalls: { readonly isStalled: boolean };
}

/**
 * The protocol heartbeat: every `intervalMs` each connection is pinged, and one that has not
 * answered the previous ping is dropped. Runs until `signal` aborts.
 */
export async function runPingLoop(deps: PingLoopDeps, signal: AbortSignal): Promise<void> {
  for (;;) {
    try {
      await deps.timers.sleep(deps.intervalMs, signal);
    } catch {
      return;
    }
    if (!deps.stalls.isStalled) pingRound(deps.connections.all());
  }
}

function pingRound(connections: readonly SimWsConnection[]): void {
  for (const connection of connections) {
    if (!connection.alive) {
      connection.terminate('no pong to the last ping');
      continue;
    }
    connection.alive = false;
    connection.ping();
  }
}
