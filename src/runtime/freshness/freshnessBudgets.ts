import { Subject, type Observable } from 'rxjs';
import { ALLOW, refused, type GuardVerdict } from '../../engine/guards/guardState.js';
import type { Intent } from '../../engine/intents/intents.js';
import { refusal } from '../../engine/intents/refusal.js';
import { FRESHNESS_CHANNELS, type FreshnessBudget, type FreshnessChannel } from '../../strategy/strategyDefinition.js';
import type { FeedClock } from './feedClock.js';

export interface StrategyFreshness {
  readonly name: string;
  readonly markets: readonly number[];
  readonly budget: FreshnessBudget;
}

/** One declared stream past its budget. */
export interface StaleFeed {
  readonly channel: FreshnessChannel;
  readonly marketId: number;
  readonly ageMs: number;
  readonly budgetMs: number;
}

/** A strategy went reduce-only (`stale`) or came back (`!stale`). */
export interface FreshnessChange {
  readonly strategy: string;
  readonly stale: boolean;
  /** The streams past budget (when stale) or the ones that were (when fresh again). */
  readonly feeds: readonly StaleFeed[];
}

/**
 * Each strategy's freshness budgets, judged on the feed clock. A strategy with a stream past its
 * budget is reduce-only on its own: its admission scope (its budget in the engine's admission,
 * engine/admission/strategyBudgets.ts) asks `conditions()`
 * before its rules, so opening intents are refused with FEED_STALE while cancels, closes and
 * reduce-only orders go through; the other strategies are not affected. The verdict reads the
 * ages live, so it lifts the moment the stream speaks again; `check()` (called on a short timer)
 * publishes the transitions for logs, alerts and metrics.
 */
export class FreshnessBudgets {
  private readonly strategies = new Map<string, StrategyFreshness>();
  private readonly published = new Map<string, readonly StaleFeed[]>();
  private readonly changeSubject = new Subject<FreshnessChange>();
  readonly changes$: Observable<FreshnessChange> = this.changeSubject.asObservable();

  constructor(
    private readonly feeds: FeedClock,
    strategies: readonly StrategyFreshness[],
  ) {
    for (const s of strategies) {
      if (Object.keys(s.budget).length === 0) continue;
      this.strategies.set(s.name, s);
      for (const channel of channelsOf(s.budget)) for (const marketId of s.markets) feeds.follow(channel, marketId);
    }
  }

  /** Every (stream, market) some strategy depends on: the bot must follow each. */
  declared(): { channel: FreshnessChannel; marketId: number }[] {
    const seen = new Map<string, { channel: FreshnessChannel; marketId: number }>();
    for (const s of this.strategies.values()) {
      for (const channel of channelsOf(s.budget))
        for (const marketId of s.markets) seen.set(`${channel}:${marketId}`, { channel, marketId });
    }
    return [...seen.values()];
  }

  budgetOf(strategy: string): FreshnessBudget | undefined {
    return this.strategies.get(strategy)?.budget;
  }

  /** The strategy's streams past budget right now (empty: fresh, or no budget declared). */
  staleFeeds(strategy: string): StaleFeed[] {
    const s = this.strategies.get(strategy);
    if (s === undefined) return [];
    const stale: StaleFeed[] = [];
    for (const channel of channelsOf(s.budget)) {
      const budgetMs = s.budget[channel] as number;
      for (const marketId of s.markets) {
        const ageMs = this.feeds.ageMs(channel, marketId);
        if (ageMs !== undefined && ageMs > budgetMs) stale.push({ channel, marketId, ageMs, budgetMs });
      }
    }
    return stale;
  }

  /** The admission conditions of the strategy's scope; undefined when it declared no budget. */
  conditions(strategy: string): { verdict(intent: Intent): GuardVerdict } | undefined {
    if (!this.strategies.has(strategy)) return undefined;
    return { verdict: (intent) => this.verdict(strategy, intent) };
  }

  verdict(strategy: string, intent: Intent): GuardVerdict {
    if (!opensRisk(intent)) return ALLOW;
    const stale = this.staleFeeds(strategy);
    if (stale.length === 0) return ALLOW;
    return refused(
      refusal(
        'feed_stale',
        stale.map(describeStale).join('; '),
        `strategy ${strategy} is reduce-only (FEED_STALE): ${stale.map(describeStale).join('; ')}`,
        'it lifts by itself once the stream is fresh again; cancels, closes and reduce-only orders still go',
        "if the stream is quiet rather than late, raise the strategy's freshness budget (freshness: in its config entry)",
      ),
    );
  }

  /** Publishes each strategy whose stale state changed since the last check. */
  check(): void {
    for (const name of this.strategies.keys()) {
      const before = this.published.get(name) ?? [];
      const now = this.staleFeeds(name);
      if (now.length > 0 && !sameFeeds(before, now)) {
        this.published.set(name, now);
        this.changeSubject.next({ strategy: name, stale: true, feeds: now });
      } else if (now.length === 0 && before.length > 0) {
        this.published.set(name, []);
        this.changeSubject.next({ strategy: name, stale: false, feeds: before });
      }
    }
  }

  close(): void {
    this.changeSubject.complete();
  }
}

export function describeStale(feed: StaleFeed): string {
  return `${feed.channel} of market ${feed.marketId} is ${feed.ageMs} ms old (budget ${feed.budgetMs} ms)`;
}

/**
 * Opening risk: a placement that is not reduce-only, and the account settings (leverage, margin
 * mode, isolated margin), refused while the data is late as they are while degraded. Cancels,
 * closes and reduce-only orders only shrink exposure.
 */
export function opensRisk(intent: Intent): boolean {
  switch (intent.kind) {
    case 'placeLimit':
    case 'placeMarket':
      return !intent.reduceOnly;
    case 'cancel':
    case 'cancelAll':
    case 'closePosition':
    case 'protect':
      // A protection's TP/SL orders only ever close the position.
      return false;
    case 'setLeverage':
    case 'setMarginMode':
    case 'adjustIsolatedMargin':
    case 'replace':
    case 'quote':
    case 'bracket':
      // A replacement opens a new order (its reduce-only flag is the old order's, not known here);
      // a quote target's actions, and a bracket's entry, are judged one by one as they go.
      return true;
  }
}

function channelsOf(budget: FreshnessBudget): FreshnessChannel[] {
  return FRESHNESS_CHANNELS.filter((c) => budget[c] !== undefined);
}

/** Same streams stale (ages differ every check; only which streams matters). */
function sameFeeds(a: readonly StaleFeed[], b: readonly StaleFeed[]): boolean {
  return a.length === b.length && a.every((f, i) => f.channel === b[i]?.channel && f.marketId === b[i]?.marketId);
}
