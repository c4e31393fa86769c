import { Subscription, type Observable } from 'rxjs';
import type { IntentOutcome } from '../../../engine/intents/intentOutcome.js';
import type { TrackedFill } from '../../../engine/tracking/orderTracker.js';
import { refusalCode } from '../../../engine/intents/refusal.js';
import type { FreshnessChange } from '../../freshness/freshnessBudgets.js';
import type { BotMetrics } from './botMetrics.js';

export interface MetricSources {
  /** Every outcome strategies see: the engine's and the budgets' refusals. */
  readonly outcomes: Observable<IntentOutcome>;
  readonly fills$: Observable<TrackedFill>;
  readonly freshness$: Observable<FreshnessChange>;
}

/** Feeds the counters from the bot's streams; nothing in the engine changes for it. */
export function observeBotMetrics(metrics: BotMetrics, sources: MetricSources): Subscription {
  const subscriptions = new Subscription();
  subscriptions.add(
    sources.outcomes.subscribe((o) => {
      metrics.intents.inc({ strategy: o.strategy, kind: o.kind, outcome: o.type });
      if (o.type === 'refused') metrics.refusals.inc({ strategy: o.strategy, rule: refusalCode(o.refusal.rule) });
      if (o.type === 'unknown') metrics.unknownOutcomes.inc({ strategy: o.strategy, kind: o.kind });
    }),
  );
  subscriptions.add(
    // A fill of an order this bot did not place is labelled as the PnL gauge labels it.
    sources.fills$.subscribe((f) =>
      metrics.fills.inc({
        strategy: f.strategy ?? 'unattributed',
        market: String(f.marketId),
        liquidity: f.liquidity,
      }),
    ),
  );
  subscriptions.add(
    sources.freshness$.subscribe((change) => {
      if (!change.stale) return;
      for (const feed of change.feeds)
        metrics.feedStale.inc({ strategy: change.strategy, channel: feed.channel, market: String(feed.marketId) });
    }),
  );
  return subscriptions;
}
