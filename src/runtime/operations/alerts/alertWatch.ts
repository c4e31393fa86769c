import { pairwise, startWith, Subscription, type Observable } from 'rxjs';
import type { TradingState } from '../../../engine/admission/tradingConditions.js';
import type { IntentOutcome } from '../../../engine/intents/intentOutcome.js';
import type { TrackedFill } from '../../../engine/tracking/orderTracker.js';
import type { ConnectionState } from '../../../venue/ws/connectionState.js';
import { describeStale, type FreshnessChange } from '../../freshness/freshnessBudgets.js';
import type { Alert } from './webhookAlerts.js';
import type { ProtectionStatus } from '../control/botStatus.js';

export interface AlertSink {
  send(alert: Alert): void;
}

export interface AlertSources {
  readonly tradingState$: Observable<TradingState>;
  readonly connection$: Observable<ConnectionState>;
  readonly freshness$: Observable<FreshnessChange>;
  readonly outcomes: Observable<IntentOutcome>;
  readonly fills$: Observable<TrackedFill>;
  /** The account's kill switch and each strategy's, read on every poll. */
  readonly killSwitches: () => readonly {
    readonly scope: string;
    readonly tripped: boolean;
    readonly reason?: string;
  }[];
  readonly strategyStatuses: () => ReadonlyMap<string, string>;
  /** The protection keeper's view (null or absent: no strategy is protected), read on every poll. */
  readonly protection?: () => ProtectionStatus | null;
}

export interface AlertWatch {
  /** Reads the kill switches and strategy states (they have no stream): call it on a short timer. */
  poll(): void;
  /** A feed failed for good and the bot stops. */
  feedLost(channel: string, message: string): void;
  close(): void;
}

/**
 * Turns what happens in the bot into alerts: the kill switch tripping, degraded and recovered,
 * the venue feed lost, a strategy reduce-only on a late stream and fresh again, a strategy that
 * failed, an unknown outcome, and fills. Which of them are posted is the sink's choice.
 */
export function watchForAlerts(sink: AlertSink, sources: AlertSources): AlertWatch {
  const subscriptions = new Subscription();
  const send = (alert: Alert | undefined): void => {
    if (alert !== undefined) sink.send(alert);
  };
  subscriptions.add(
    sources.tradingState$.pipe(startWith(undefined), pairwise()).subscribe(([before, state]) => {
      if (state !== undefined) send(tradingStateAlert(before, state));
    }),
  );
  subscriptions.add(
    sources.connection$
      .pipe(startWith(undefined), pairwise())
      .subscribe(([before, state]) => send(connectionAlert(before, state))),
  );
  subscriptions.add(sources.freshness$.subscribe((change) => send(freshnessAlert(change))));
  subscriptions.add(sources.outcomes.subscribe((o) => send(unknownOutcomeAlert(o))));
  subscriptions.add(sources.fills$.subscribe((f) => send(fillAlert(f))));
  const polled = new PolledAlerts(sink, sources);
  return {
    poll: () => polled.poll(),
    feedLost(channel, message) {
      sink.send({
        event: 'feed_lost',
        text: `venue feed ${channel} failed for good: ${message}; the bot stops`,
        details: { channel },
      });
    },
    close() {
      subscriptions.unsubscribe();
    },
  };
}

/** Degraded on entering it; recovered (with how long) on trading again after it. */
/** The refusal code a degraded engine gives opening intents: the journal's when it is the cause. */
function degradedCode(state: TradingState): string {
  return state.reasons.some((r) => r.startsWith('journal unwritable')) ? 'JOURNAL_DOWN' : 'FEED_DOWN';
}

function tradingStateAlert(before: TradingState | undefined, state: TradingState): Alert | undefined {
  if (state.mode === 'degraded' && before?.mode !== 'degraded') {
    return {
      event: 'degraded',
      text: `trading degraded: opening intents refused (${degradedCode(state)}): ${state.reasons.join('; ')}`,
      details: { reasons: state.reasons },
    };
  }
  if (state.mode === 'trading' && before?.mode === 'degraded') {
    const seconds = ((state.sinceMs - before.sinceMs) / 1000).toFixed(1);
    return {
      event: 'recovered',
      text: `trading resumed after ${seconds} s degraded: ${degradedCode(before) === 'JOURNAL_DOWN' ? 'the journal takes writes again' : 'feeds up and reconciled'}`,
      details: { degradedMs: state.sinceMs - before.sinceMs },
    };
  }
  return undefined;
}

/** The WebSocket lost after it was up (not the first connection, nor a reconnect that fails again). */
function connectionAlert(before: ConnectionState | undefined, state: ConnectionState | undefined): Alert | undefined {
  if (
    state?.status !== 'reconnecting' ||
    before === undefined ||
    before.status === 'reconnecting' ||
    before.status === 'connecting'
  )
    return undefined;
  return {
    event: 'feed_lost',
    text: `venue WebSocket lost${state.reason === undefined ? '' : ` (${state.reason})`}; reconnecting`,
    details: { reason: state.reason },
  };
}

function freshnessAlert(change: FreshnessChange): Alert {
  const feeds = change.feeds.map(describeStale).join('; ');
  return change.stale
    ? {
        event: 'feed_stale',
        text: `strategy ${change.strategy} is reduce-only (FEED_STALE): ${feeds}`,
        details: { strategy: change.strategy, feeds: change.feeds },
      }
    : {
        event: 'feed_stale',
        text: `strategy ${change.strategy}: its streams are fresh again; opening intents allowed`,
        details: { strategy: change.strategy },
      };
}

function unknownOutcomeAlert(o: IntentOutcome): Alert | undefined {
  if (o.type !== 'unknown') return undefined;
  return {
    event: 'unknown_outcome',
    text: `outcome unknown: ${o.strategy} ${o.kind} on market ${o.marketId} (intent ${o.intentId}): ${o.reason}; the next reconciliation resolves it`,
    details: { intentId: o.intentId, strategy: o.strategy },
  };
}

function fillAlert(f: TrackedFill): Alert {
  return {
    event: 'fill',
    text: `fill: ${f.strategy ?? 'no strategy'} ${f.side} ${f.size} @ ${f.price} on market ${f.marketId} (${f.liquidity.toLowerCase()}, fee ${f.fee})`,
    details: { id: f.id, strategy: f.strategy, marketId: f.marketId },
  };
}

/**
 * What has no stream, read on each poll: a kill switch tripped or reset (the account's or a
 * strategy's) and a strategy that failed, each alerted once per change.
 */
class PolledAlerts {
  private readonly tripped = new Map<string, boolean>();
  private readonly statuses = new Map<string, string>();
  private readonly unprotected = new Set<string>();
  private budget: string | null = null;

  constructor(
    private readonly sink: AlertSink,
    private readonly sources: Pick<AlertSources, 'killSwitches' | 'strategyStatuses' | 'protection'>,
  ) {}

  poll(): void {
    this.pollProtection();
    for (const k of this.sources.killSwitches()) {
      const was = this.tripped.get(k.scope) === true;
      const name = k.scope === 'account' ? 'kill switch' : `strategy ${k.scope} kill switch`;
      if (k.tripped && !was) {
        this.sink.send({
          event: 'kill_switch',
          text: `${name} tripped: ${k.reason ?? 'no reason given'}`,
          details: { scope: k.scope, reason: k.reason },
        });
      } else if (!k.tripped && was) {
        this.sink.send({ event: 'kill_switch', text: `${name} reset`, details: { scope: k.scope } });
      }
      this.tripped.set(k.scope, k.tripped);
    }
    for (const [name, status] of this.sources.strategyStatuses()) {
      if (status === 'failed' && this.statuses.get(name) !== 'failed')
        this.sink.send({
          event: 'strategy_error',
          text: `strategy ${name} failed and was stopped (see the bot log for the error)`,
          details: { strategy: name },
        });
      this.statuses.set(name, status);
    }
  }

  /** A protected position left without its venue stops past the grace, once; and when it is protected again. */
  private pollProtection(): void {
    const protection = this.sources.protection?.() ?? null;
    const budget = protection?.budgetWarning ?? null;
    if (budget !== null && budget !== this.budget)
      this.sink.send({ event: 'position_unprotected', text: `TP/SL budget: ${budget}`, details: { budget } });
    this.budget = budget;
    for (const p of protection?.positions ?? []) {
      const key = `${p.strategy}/${p.marketId}`;
      const was = this.unprotected.has(key);
      if (p.unprotected && !was) {
        this.unprotected.add(key);
        this.sink.send({
          event: 'position_unprotected',
          text: `position of ${p.strategy} on market ${p.marketId} has no active stop on the venue${p.emulated ? ': the venue refuses TP/SL orders, the stop is emulated by this process and dies with it' : ''}`,
          details: { strategy: p.strategy, marketId: p.marketId, emulated: p.emulated },
        });
      } else if (!p.unprotected && was) {
        this.unprotected.delete(key);
        this.sink.send({
          event: 'position_unprotected',
          text: `position of ${p.strategy} on market ${p.marketId} protected again`,
          details: { strategy: p.strategy, marketId: p.marketId, protected: true },
        });
      }
    }
  }
}
