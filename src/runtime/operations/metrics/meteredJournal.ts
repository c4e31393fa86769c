import { performance } from 'node:perf_hooks';
import type { EngineJournal } from '../../../engine/tracking/engineJournal.js';
import type { FeedClock } from '../../freshness/feedClock.js';
import type { BotMetrics } from './botMetrics.js';

/**
 * The engine's journal hooks, teed into the metrics after the journal itself has recorded each
 * step: resends (a request sent again, attempt > 1) and tick-to-trade, from the last market-data
 * message (mark or book) of the market seen when the intent arrived, to its first send. The
 * engine already calls these hooks at exactly those moments, so it needs no hook of its own.
 */
export function meteredJournal(journal: EngineJournal, metrics: BotMetrics, feeds: FeedClock): EngineJournal {
  // Intents received and not yet sent: the tick they answer (performance.now()), with their labels.
  const ticks = new Map<string, { readonly tickHr: number; readonly strategy: string; readonly market: string }>();
  return {
    intentReceived(intent, atMs) {
      journal.intentReceived(intent, atMs);
      if (intent.kind !== 'placeLimit' && intent.kind !== 'placeMarket') return;
      const tickHr = Math.max(
        feeds.lastHr('mark', intent.marketId) ?? Number.NEGATIVE_INFINITY,
        feeds.lastHr('book', intent.marketId) ?? Number.NEGATIVE_INFINITY,
      );
      if (Number.isFinite(tickHr))
        ticks.set(intent.intentId, { tickHr, strategy: intent.strategy, market: String(intent.marketId) });
    },
    nonceAllocated(pair, intentId) {
      journal.nonceAllocated(pair, intentId);
    },
    requestSent(entry) {
      journal.requestSent(entry);
      if (entry.attempt > 1) metrics.resends.inc({ endpoint: entry.endpoint });
      const tick = ticks.get(entry.intentId);
      if (tick !== undefined) {
        ticks.delete(entry.intentId);
        metrics.tickToTrade.observe(
          { strategy: tick.strategy, market: tick.market },
          (performance.now() - tick.tickHr) / 1000,
        );
      }
    },
    responseReceived(entry) {
      journal.responseReceived(entry);
    },
    outcome(outcome) {
      journal.outcome(outcome);
      // Refused before any send: nothing to time.
      ticks.delete(outcome.intentId);
    },
  };
}
