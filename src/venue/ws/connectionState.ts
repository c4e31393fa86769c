export type ConnectionStatus = 'connecting' | 'open' | 'authenticated' | 'reconnecting' | 'closed';

/**
 * What the connection is doing, for the engine: after a `reconnecting`, every channel is
 * resubscribed (and private ones re-authenticated) but messages sent meanwhile were missed, so the
 * engine reconciles its state (open orders, positions) through REST.
 */
export interface ConnectionState {
  readonly status: ConnectionStatus;
  readonly reason?: string;
  /** How many connections have been opened so far; a change after `open` means a reconnect. */
  readonly connections: number;
}
