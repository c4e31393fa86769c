import type { Clock } from '../../core/clock.js';
import { positiveInteger } from './positiveInteger.js';
import type { SimWsConnection } from './simWsConnection.js';

/** The connections a stall applies to, looked up at each change (they come and go). */
export interface StalledConnections {
  all(): readonly SimWsConnection[];
}

/**
 * The server-wide stall (a test control and a fault): while it holds, every connection sends
 * nothing and answers no ping, and nothing is closed. A timed stall (`stall(ms)`) and an
 * indefinite one (`setStalled(true)`) may overlap; connections resume only when neither holds.
 */
export class WsStallControl {
  private stalledUntil = 0;
  private indefinitely = false;

  constructor(
    private readonly connections: StalledConnections,
    /** Real time, not the simulated clock. */
    private readonly timers: Clock,
    /** Aborted when the server closes: a pending timed stall then never resumes anything. */
    private readonly lifetime: AbortSignal,
  ) {}

  get isStalled(): boolean {
    return this.indefinitely || this.timers.now() < this.stalledUntil;
  }

  /** Stalls every connection for `ms`; a longer stall already running keeps its end. */
  stall(ms: number): void {
    positiveInteger(ms, 'stall ms');
    this.stalledUntil = Math.max(this.stalledUntil, this.timers.now() + ms);
    for (const connection of this.connections.all()) connection.stall();
    void this.timers
      .sleep(ms, this.lifetime)
      .then(() => {
        if (!this.isStalled) this.resumeAll(); // otherwise a longer or indefinite stall still holds
      })
      .catch(() => undefined);
  }

  /** Starts an indefinite stall, or ends every stall (timed ones included). */
  setStalled(stalled: boolean): void {
    this.indefinitely = stalled;
    if (stalled) for (const connection of this.connections.all()) connection.stall();
    else {
      this.stalledUntil = 0;
      this.resumeAll();
    }
  }

  private resumeAll(): void {
    for (const connection of this.connections.all()) {
      connection.alive = true; // silence during a stall is ours, not the client's
      connection.resume();
    }
  }
}
