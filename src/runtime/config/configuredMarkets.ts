import type { NonTradingConfig } from './configSchema.js';

/** Every market the configured strategies trade, ascending. */
export function configuredMarkets(config: NonTradingConfig): number[] {
  return [...new Set(config.strategies.flatMap((s) => s.markets))].sort((a, b) => a - b);
}
