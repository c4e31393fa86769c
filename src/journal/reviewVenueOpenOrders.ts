import { multiplyUnits } from '../core/decimal.js';
import type { InferredOrderEvent, OrderSpec } from '../engine/orders/orderModelEvent.js';
import { storedOrder } from '../engine/orders/storedOrder.js';
import type { RestClient } from '../venue/rest/restClient.js';
import type { Market } from '../venue/schemas/restMarkets.js';
import type { OpenOrder } from '../venue/schemas/restOrders.js';
import { readMarkets } from '../venue/venueInfo.js';
import { placementClientOrderId } from './inFlightPlacement.js';
import type { UnknownOrderPolicy } from './reconcileOptions.js';
import type { ReconciliationRun } from './reconciliationRun.js';

/** A market's grid: what turns an order's steps and ticks into decimals. */
type Grid = Pick<Market['config'], 'step_size' | 'step_price'>;
type MarketConfigs = ReadonlyMap<number, Grid>;

/**
 * The venue's open orders against the journal: a journaled order rests on the venue (an event the
 * order model applies, which may correct an end it inferred); one an in-flight placement of this
 * reconciliation sent is that intent's; any other is unknown, reported, and per the policy
 * adopted by its market's strategy ("resting on the venue, unknown to us"), cancelled, or left.
 */
export async function reviewVenueOpenOrders(run: ReconciliationRun): Promise<void> {
  let configs: MarketConfigs | undefined;
  for (const v of run.inputs.venue.openOrders) {
    if (reopenIfKnown(run, v) || sentInFlight(run, v)) continue;
    const marketId = Number(v.market_id);
    const { action, strategy } = unknownOrderAction(run, marketId);
    run.differences.push({
      type: 'unknown_open_order',
      orderId: v.order_id,
      marketId,
      action,
      ...(strategy === undefined ? {} : { strategy }),
    });
    if (action === 'cancel') run.toCancel.push({ orderId: v.order_id, marketId });
    if (action === 'adopt' && strategy !== undefined && run.options.apply) {
      // Read once, and only when an order is adopted: the grid turns its steps and ticks into decimals.
      configs ??= await readMarketConfigs(run.options.rest);
      const config = configs.get(marketId);
      if (config !== undefined) adopt(run, v, marketId, strategy, config);
    }
  }
}

/**
 * A journaled order of this account: "resting on the venue", an event the order model applies to
 * it; unless the journal learned of the order after the read began (the live feed filled or
 * cancelled it meanwhile), when the read is older than what it would correct.
 */
function reopenIfKnown(run: ReconciliationRun, v: OpenOrder): boolean {
  const known = run.options.journal.orderByOrderId(v.order_id);
  if (known === undefined || known.account !== run.options.account.toLowerCase()) return false;
  if (known.updatedMs > run.atMs) return true;
  run.applyEvent(storedOrder(known), restingEvent(v));
  return true;
}

function restingEvent(v: OpenOrder, order?: OrderSpec): InferredOrderEvent {
  return {
    type: 'found_resting',
    cause: 'venue_open_orders',
    orderId: v.order_id,
    restingOrderId: v.resting_order_id,
    ...(order === undefined ? {} : { order }),
  };
}

/** Whether an in-flight intent of the reconciliation sent the order (by client_order_id). */
function sentInFlight(run: ReconciliationRun, v: OpenOrder): boolean {
  const coid = v.client_order_id?.toString();
  return coid !== undefined && run.inputs.inFlight.some((f) => placementClientOrderId(f) === coid);
}

/** Policy adopt falls back to leave when no strategy trades the order's market. */
function unknownOrderAction(
  run: ReconciliationRun,
  marketId: number,
): { readonly action: UnknownOrderPolicy; readonly strategy?: string } {
  const { unknownOrders, adopter } = run.options;
  const strategy = unknownOrders === 'adopt' ? adopter?.(marketId) : undefined;
  if (strategy !== undefined) return { action: unknownOrders, strategy };
  return { action: unknownOrders === 'adopt' ? 'leave' : unknownOrders };
}

async function readMarketConfigs(rest: Pick<RestClient, 'markets'>): Promise<MarketConfigs> {
  return new Map((await readMarkets(rest)).map((m) => [Number(m.market_id), m.config]));
}

/** "Resting on the venue, unknown to us": the order model starts it resting, the strategy's. */
function adopt(run: ReconciliationRun, v: OpenOrder, marketId: number, strategy: string, config: Grid): void {
  const order: OrderSpec = {
    intentId: `adopted-${v.order_id.toLowerCase()}`,
    strategy,
    marketId,
    side: v.side === 0 ? 'buy' : 'sell',
    size: multiplyUnits(BigInt(v.size_steps), config.step_size, 'step_size'),
    price: multiplyUnits(BigInt(v.price_ticks), config.step_price, 'step_price'),
    ...(v.client_order_id === undefined ? {} : { clientOrderId: v.client_order_id }),
  };
  run.applyEvent(undefined, restingEvent(v, order));
}
