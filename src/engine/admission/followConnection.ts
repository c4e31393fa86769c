import { Subscription, type Observable } from 'rxjs';
import type { TradingConditions } from './tradingConditions.js';

/** What the engine reads of the venue connection: the WebSocket client's `connectionState$`. */
export interface ConnectionStatusView {
  readonly status: string;
  readonly reason?: string;
}

/**
 * Turns the connection's states into the trading conditions: the private feeds are up only while
 * the connection is authenticated. Leaving `authenticated` puts the engine in degraded mode;
 * coming back calls `onReconnected`, whose reconciliation lifts it (`onLost` hears of the loss
 * first). Before the first authentication nothing was lost, so nothing is reported.
 */
export function followConnection(
  connection$: Observable<ConnectionStatusView>,
  conditions: TradingConditions,
  onReconnected: () => void,
  onLost?: () => void,
): Subscription {
  let everAuthenticated = false;
  let down = false;
  return connection$.subscribe((state) => {
    if (state.status === 'authenticated') {
      everAuthenticated = true;
      if (!down) return;
      down = false;
      conditions.feedUp();
      onReconnected();
      return;
    }
    if (!everAuthenticated || state.status === 'closed') return;
    if (!down) onLost?.();
    down = true;
    conditions.feedDown(describeStatus(state));
  });
}

/** The connection's state as a reason a person reads: what it is doing, and why when it says. */
function describeStatus(state: ConnectionStatusView): string {
  const doing = state.status === 'open' ? 'connected, authenticating' : state.status;
  return state.reason === undefined ? doing : `${doing}: ${state.reason}`;
}
