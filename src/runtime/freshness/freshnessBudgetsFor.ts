import type { HostedStrategy } from '../../strategy/strategyHost.js';
import type { Config } from '../config/configSchema.js';
import type { FeedClock } from './feedClock.js';
import { FreshnessBudgets } from './freshnessBudgets.js';
import { resolveFreshness } from './resolveFreshness.js';

/** Each loaded strategy's budgets: its definition's, overridden by its config entry's `freshness:`. */
export function freshnessBudgetsFor(
  hosted: readonly HostedStrategy[],
  config: Config,
  feeds: FeedClock,
): FreshnessBudgets {
  return new FreshnessBudgets(
    feeds,
    hosted.map((h) => ({
      name: h.name,
      markets: h.markets,
      budget: resolveFreshness(
        h.name,
        h.definition.freshness,
        config.strategies.find((s) => s.name === h.name)?.freshness,
      ),
    })),
  );
}
