import type { Logger } from '../../core/logger.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readVenueSnapshot } from '../../venue/state/venueSnapshot.js';

const READ_BUDGET_MS = 5_000;

/**
 * The last words of a shutdown: what the venue still holds for the account in the bot's markets
 * (open orders, non-flat positions), read from the venue itself rather than from the tracker, so
 * an operator reading the log knows exactly what was left behind, whether the shutdown's cancels
 * went through or not. A read that fails is said too: silence would read as "nothing left".
 */
export async function reportLeftOnVenue(
  rest: Pick<RestClient, 'openOrders' | 'position' | 'crossMarginBalance'>,
  account: string,
  markets: readonly number[],
  logger: Pick<Logger, 'info' | 'warn'>,
): Promise<void> {
  try {
    const state = await readVenueSnapshot(
      rest,
      { account, markets },
      { callOptions: { signal: AbortSignal.timeout(READ_BUDGET_MS), deadlineMs: READ_BUDGET_MS } },
    );
    const orders = state.openOrders.map((o) => ({
      marketId: Number(o.market_id),
      orderId: o.order_id,
      side: o.side === 0 ? 'buy' : 'sell',
      sizeSteps: o.size_steps,
      priceTicks: o.price_ticks,
    }));
    const positions = [...state.positions.values()]
      .filter((p) => !p.flat)
      .map((p) => ({ marketId: p.marketId, side: p.side, size: p.size }));
    if (orders.length === 0 && positions.length === 0) {
      logger.info({ markets }, 'left on the venue at exit: nothing (no open orders, no positions)');
      return;
    }
    logger.warn(
      { markets, openOrders: orders, positions },
      `left on the venue at exit: ${orders.length} open order(s), ${positions.length} position(s)`,
    );
  } catch (err) {
    logger.warn(
      { err, markets },
      'left on the venue at exit: unknown, the venue could not be read; check with perpbot status',
    );
  }
}
