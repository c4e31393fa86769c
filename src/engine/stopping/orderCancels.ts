import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { cancel, cancelAll } from '../intents/intentBuilders.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { readVenuePositions } from '../tracking/snapshotRecords.js';

/** What cancelling on the engine's behalf needs: its pipeline, its order model, and REST for the positions. */
export interface OrderCancelsDeps {
  readonly tracker: OrderTracker;
  readonly rest: RestClient;
  readonly account: Address;
  readonly clock: Clock;
  readonly log: Logger;
  execute(intent: Intent): Promise<IntentOutcome>;
}

/**
 * Cancels every open order a strategy placed (those still queued at once, nothing sent), then
 * reads the positions of the markets where any had reached the venue again from REST: a
 * cancel's answer does not say what filled just before it, and the feeds may report that fill
 * after the answer, so a stopping strategy's onStop would otherwise flatten a stale position.
 * Positions only: the open orders are the feeds' (a snapshot of them would close an order
 * another strategy placed while it was read).
 */
export async function cancelOrdersOf(strategy: string, deps: OrderCancelsDeps): Promise<void> {
  const open = deps.tracker.openOrders({ strategy });
  await Promise.all(
    open.map((o) =>
      deps.execute(
        cancel({ intentId: `${o.intentId}-cancel`, strategy, marketId: o.marketId, target: { intentId: o.intentId } }),
      ),
    ),
  );
  const markets = [...new Set(open.filter((o) => o.state !== 'queued').map((o) => o.marketId))];
  if (markets.length === 0) return;
  try {
    // A fill the feed reported while the positions were read is newer than the read.
    const readFrom = deps.tracker.readMark();
    deps.tracker.onPositions(await readVenuePositions(deps.rest, deps.account, markets), readFrom);
  } catch (err) {
    deps.log.warn(
      { err, strategy, markets },
      "positions not read again after cancelling the strategy's orders: what follows judges the feeds' state",
    );
  }
}

/** The account's kill switch tripped: a cancel-all in every market with an open order, ours or not. */
export async function cancelEveryMarket(reason: string, deps: OrderCancelsDeps): Promise<void> {
  deps.log.error({ reason }, 'kill switch tripped: cancelling all orders');
  const markets = new Set(deps.tracker.openOrders().map((o) => o.marketId));
  for (const f of deps.tracker.foreignOrders()) markets.add(f.marketId);
  await Promise.all(
    [...markets].map((marketId) =>
      deps.execute(
        cancelAll({ intentId: `kill-switch-${marketId}-${deps.clock.now()}`, strategy: 'engine', marketId }),
      ),
    ),
  );
}
