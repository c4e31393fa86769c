import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TradingState } from '../../../../src/engine/admission/tradingConditions.js';
import type { IntentOutcome } from '../../../../src/engine/intents/intentOutcome.js';
import type { TrackedFill } from '../../../../src/engine/tracking/orderTracker.js';
import { watchForAlerts } from '../../../../src/runtime/operations/alerts/alertWatch.js';
import type { Alert } from '../../../../src/runtime/operations/alerts/webhookAlerts.js';
import type { FreshnessChange } from '../../../../src/runtime/freshness/freshnessBudgets.js';
import type { ConnectionState } from '../../../../src/venue/ws/connectionState.js';

function setup() {
  const sent: Alert[] = [];
  const trading = new BehaviorSubject<TradingState>({ mode: 'trading', reasons: [], sinceMs: 0, reconciling: false });
  const connection = new BehaviorSubject<ConnectionState>({ status: 'connecting', connections: 0 });
  const freshness = new Subject<FreshnessChange>();
  const outcomes = new Subject<IntentOutcome>();
  const fills = new Subject<TrackedFill>();
  const kill = {
    account: { tripped: false } as { tripped: boolean; reason?: string },
    mm: { tripped: false } as { tripped: boolean; reason?: string },
  };
  const statuses = new Map<string, string>([['mm', 'running']]);
  const watch = watchForAlerts(
    { send: (a) => void sent.push(a) },
    {
      tradingState$: trading,
      connection$: connection,
      freshness$: freshness,
      outcomes,
      fills$: fills,
      killSwitches: () => [
        { scope: 'account', ...kill.account },
        { scope: 'mm', ...kill.mm },
      ],
      strategyStatuses: () => statuses,
    },
  );
  return {
    sent,
    trading,
    connection,
    freshness,
    outcomes,
    fills,
    kill,
    statuses,
    watch,
    texts: () => sent.map((a) => `${a.event}: ${a.text}`),
  };
}

describe('watchForAlerts', () => {
  it('degraded and recovered (with how long), once per transition', () => {
    const t = setup();
    t.trading.next({
      mode: 'degraded',
      reasons: ['private feeds down (socket closed)'],
      sinceMs: 1_000,
      reconciling: false,
    });
    t.trading.next({
      mode: 'degraded',
      reasons: ['engine reconciliation after the reconnect not done yet'],
      sinceMs: 1_000,
      reconciling: true,
    });
    t.trading.next({ mode: 'trading', reasons: [], sinceMs: 3_500, reconciling: false });
    expect(t.texts()).toEqual([
      'degraded: trading degraded: opening intents refused (FEED_DOWN): private feeds down (socket closed)',
      'recovered: trading resumed after 2.5 s degraded: feeds up and reconciled',
    ]);
  });

  it('names the journal as the cause when it cannot be written, and its return', () => {
    const t = setup();
    t.trading.next({
      mode: 'degraded',
      reasons: ['journal unwritable (database or disk is full (SQLITE_FULL))'],
      sinceMs: 1_000,
      reconciling: false,
    });
    t.trading.next({ mode: 'trading', reasons: [], sinceMs: 2_000, reconciling: false });
    expect(t.texts()).toEqual([
      'degraded: trading degraded: opening intents refused (JOURNAL_DOWN): journal unwritable (database or disk is full (SQLITE_FULL))',
      'recovered: trading resumed after 1.0 s degraded: the journal takes writes again',
    ]);
  });

  it('the WebSocket lost while it was up (not the first connect), and a feed lost for good', () => {
    const t = setup();
    t.connection.next({ status: 'reconnecting', connections: 0 });
    t.connection.next({ status: 'open', connections: 1 });
    t.connection.next({ status: 'authenticated', connections: 1 });
    t.connection.next({ status: 'reconnecting', reason: 'server closed (1006)', connections: 1 });
    t.watch.feedLost('fills', 'subscription refused');
    expect(t.texts()).toEqual([
      'feed_lost: venue WebSocket lost (server closed (1006)); reconnecting',
      'feed_lost: venue feed fills failed for good: subscription refused; the bot stops',
    ]);
  });

  it('kill switches (account and strategy) and strategy failures, found by polling, each once', () => {
    const t = setup();
    t.watch.poll();
    expect(t.sent).toEqual([]);
    t.kill.account = { tripped: true, reason: 'loss limit' };
    t.kill.mm = { tripped: true, reason: 'strategy loss' };
    t.statuses.set('mm', 'failed');
    t.watch.poll();
    t.watch.poll();
    t.kill.account = { tripped: false };
    t.watch.poll();
    expect(t.texts()).toEqual([
      'kill_switch: kill switch tripped: loss limit',
      'kill_switch: strategy mm kill switch tripped: strategy loss',
      'strategy_error: strategy mm failed and was stopped (see the bot log for the error)',
      'kill_switch: kill switch reset',
    ]);
  });

  it('freshness, unknown outcomes and fills', () => {
    const t = setup();
    t.freshness.next({
      strategy: 'mm',
      stale: true,
      feeds: [{ channel: 'book', marketId: 1, ageMs: 2500, budgetMs: 2000 }],
    });
    t.freshness.next({ strategy: 'mm', stale: false, feeds: [] });
    t.outcomes.next({ type: 'accepted', intentId: 'a', strategy: 'mm', kind: 'placeLimit', marketId: 1, atMs: 0 });
    t.outcomes.next({
      type: 'unknown',
      intentId: 'u',
      strategy: 'mm',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 0,
      reason: 'no answer after 3 resends',
    });
    t.fills.next({
      id: 'f',
      marketId: 1,
      orderId: '0x1',
      strategy: 'mm',
      side: 'sell',
      price: '65000',
      size: '0.001',
      fee: '0.01',
      liquidity: 'MAKER',
    });
    expect(t.texts()).toEqual([
      'feed_stale: strategy mm is reduce-only (FEED_STALE): book of market 1 is 2500 ms old (budget 2000 ms)',
      'feed_stale: strategy mm: its streams are fresh again; opening intents allowed',
      'unknown_outcome: outcome unknown: mm placeLimit on market 1 (intent u): no answer after 3 resends; the next reconciliation resolves it',
      'fill: fill: mm sell 0.001 @ 65000 on market 1 (maker, fee 0.01)',
    ]);
  });
});
