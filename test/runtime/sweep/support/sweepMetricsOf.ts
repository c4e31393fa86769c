import type { SweepMetrics } from '../../../../src/runtime/sweep/sweepMetrics.js';

/** A replay's figures with the given net PnL and drawdown: one fill, one order, nothing else. */
export function sweepMetricsOf(netPnl: string, maxDrawdown = '1'): SweepMetrics {
  return {
    netPnl,
    maxDrawdown,
    volume: '0',
    fees: '0',
    fills: 1,
    orders: 1,
    sharpe: null,
    quoteUptime: null,
    failures: 0,
  };
}
