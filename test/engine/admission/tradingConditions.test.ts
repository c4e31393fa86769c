import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { followConnection } from '../../../src/engine/admission/followConnection.js';
import { OutageWatch } from '../../../src/engine/admission/outageWatch.js';
import { TradingConditions, type TradingState } from '../../../src/engine/admission/tradingConditions.js';
import { DEFAULT_ENGINE_CONFIG, type DegradedConfig } from '../../../src/engine/config/engineConfig.js';
import {
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
} from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';

const base = { strategy: 's', marketId: 1 };
const opening = placeLimit({ ...base, intentId: 'o', side: 'buy', size: '1', price: '100' });
const reducing = placeMarket({ ...base, intentId: 'r', side: 'sell', size: '1', reduceOnly: true });
const kinds: readonly Intent[] = [
  opening,
  reducing,
  cancel({ ...base, intentId: 'c', target: { orderId: '0x01' } }),
  cancelAll({ ...base, intentId: 'ca' }),
  closePosition({ ...base, intentId: 'cp' }),
  setLeverage({ ...base, intentId: 'l', leverage: 2 }),
];

function verdicts(conditions: TradingConditions, config: DegradedConfig = DEFAULT_ENGINE_CONFIG.degraded): string[] {
  return kinds.map((intent) => {
    const v = conditions.verdict(intent, config);
    return `${intent.intentId}:${v.kind === 'refuse' ? v.refusal.rule : v.kind}`;
  });
}

describe('TradingConditions', () => {
  it('with the journal down opens nothing (JOURNAL_DOWN) but lets cancels and closes through, until it is up', () => {
    const c = new TradingConditions(new ManualClock());
    c.journalDown('disk full (SQLITE_FULL)');
    expect(c.state).toMatchObject({ mode: 'degraded', reasons: ['journal unwritable (disk full (SQLITE_FULL))'] });
    expect(verdicts(c)).toEqual(['o:journal_down', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:journal_down']);
    const refusal = c.verdict(opening, DEFAULT_ENGINE_CONFIG.degraded);
    expect(refusal.kind === 'refuse' && refusal.refusal.reason).toBe(
      'trading paused (JOURNAL_DOWN): journal unwritable (disk full (SQLITE_FULL))',
    );
    c.journalUp();
    expect(c.state.mode).toBe('trading');
    expect(verdicts(c)).toEqual(['o:allow', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:allow']);
  });

  it('trades by default; degraded while the feeds are down lets only cancels and reduce-only orders through', () => {
    const c = new TradingConditions(new ManualClock());
    expect(verdicts(c)).toEqual(['o:allow', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:allow']);
    c.feedDown('reconnecting: socket closed');
    expect(c.state).toMatchObject({ mode: 'degraded', reasons: ['private feeds down (reconnecting: socket closed)'] });
    expect(verdicts(c)).toEqual(['o:feed_down', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:feed_down']);
    expect(verdicts(c, { ...DEFAULT_ENGINE_CONFIG.degraded, allowCancels: false, allowReduceOnly: false })).toEqual([
      'o:feed_down',
      'r:feed_down',
      'c:feed_down',
      'ca:feed_down',
      'cp:feed_down',
      'l:feed_down',
    ]);
  });

  it('reconciling frames lost on a connection that stayed up: intents wait, the mode stays trading unless a part fails', () => {
    const c = new TradingConditions(new ManualClock());
    c.registerReconciler('engine');
    c.registerReconciler('journal');
    c.reconcileRound({ quiet: true });
    c.reconcileStarted('engine');
    c.reconcileStarted('journal');
    expect(c.state).toMatchObject({ mode: 'trading', reasons: [], reconciling: true, degraded: false });
    expect(c.verdict(opening, DEFAULT_ENGINE_CONFIG.degraded)).toMatchObject({ kind: 'wait' });
    c.reconcileSucceeded('engine');
    c.reconcileFailed('journal', 'reconciliation after a reconnect failed (HTTP 503)', ['the bot retries shortly']);
    expect(c.state).toMatchObject({
      mode: 'degraded',
      reasons: ['reconciliation after a reconnect failed (HTTP 503)'],
      reconciling: false,
    });
    expect(verdicts(c)).toEqual(['o:feed_down', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:feed_down']);
    c.reconcileSucceeded('journal');
    expect(c.state).toMatchObject({ mode: 'trading', reconciling: false });
  });

  it('a feed loss during a quiet round makes the next one an outage: due reconcilers hold the engine degraded', () => {
    const c = new TradingConditions(new ManualClock());
    c.registerReconciler('engine');
    c.reconcileRound({ quiet: true });
    c.reconcileStarted('engine');
    c.feedDown('socket closed');
    c.feedUp();
    expect(c.state).toMatchObject({
      mode: 'degraded',
      reasons: ['engine reconciliation after the reconnect not done yet'],
    });
    expect(verdicts(c)).toEqual(['o:feed_down', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:feed_down']);
    // Asked for a quiet round while the feeds are down: still an outage.
    c.feedDown('socket closed');
    c.reconcileRound({ quiet: true });
    expect(c.state.mode).toBe('degraded');
  });

  it('frames lost while the round after a reconnect is unfinished: the new round belongs to that outage and is loud until it succeeds', () => {
    const c = new TradingConditions(new ManualClock());
    c.registerReconciler('engine');
    c.feedDown('socket closed');
    c.feedUp();
    c.reconcileRound({ quiet: false });
    c.reconcileStarted('engine');
    // A block gap on the new connection while the outage's round runs: it supersedes that round.
    c.reconcileRound({ quiet: true });
    c.reconcileStarted('engine');
    expect(c.state).toMatchObject({
      mode: 'degraded',
      reasons: ['engine reconciliation after the reconnect not done yet'],
      reconciling: true,
    });
    c.reconcileSucceeded('engine');
    expect(c.state).toMatchObject({ mode: 'trading', reconciling: false });
    // Once it is done, frames lost are a quiet round again; after a failed outage round they are not.
    c.reconcileRound({ quiet: true });
    c.reconcileStarted('engine');
    expect(c.state.mode).toBe('trading');
    c.reconcileSucceeded('engine');
    c.feedDown('socket closed');
    c.feedUp();
    c.reconcileRound({ quiet: false });
    c.reconcileFailed('engine', 'reconciliation after a reconnect failed (HTTP 503)');
    c.reconcileRound({ quiet: true });
    c.reconcileStarted('engine');
    expect(c.state.mode).toBe('degraded');
  });

  it('after the feeds come back, stays degraded until every reconciler succeeded; a running one makes intents wait; a failed one names its reason and hint', () => {
    const c = new TradingConditions(new ManualClock());
    c.registerReconciler('engine');
    c.registerReconciler('journal');
    c.feedDown('reconnecting');
    c.feedUp();
    expect(c.state.reasons).toEqual([
      'engine reconciliation after the reconnect not done yet',
      'journal reconciliation after the reconnect not done yet',
    ]);
    c.reconcileStarted('journal');
    expect(c.verdict(opening, DEFAULT_ENGINE_CONFIG.degraded)).toMatchObject({ kind: 'wait' });
    c.reconcileFailed('journal', 'reconciliation after a reconnect failed (HTTP 503)', ['the bot retries shortly']);
    c.reconcileSucceeded('engine');
    const refused = c.verdict(opening, DEFAULT_ENGINE_CONFIG.degraded);
    expect(refused).toEqual({
      kind: 'refuse',
      refusal: {
        rule: 'feed_down',
        value: 'placeLimit',
        reason: 'trading paused (FEED_DOWN): reconciliation after a reconnect failed (HTTP 503)',
        hints: ['the bot retries shortly'],
      },
    });
    c.reconcileSucceeded('journal');
    expect(c.state).toMatchObject({ mode: 'trading', reasons: [] });
  });

  it('a stop is for good and leaves the decision to the kill switch tripped with it (cancels and closes must still go at shutdown)', () => {
    const c = new TradingConditions(new ManualClock());
    c.feedDown('x');
    c.stop('signer revoked');
    c.feedUp();
    expect(c.state).toMatchObject({ mode: 'stopped', reasons: ['signer revoked'] });
    expect(verdicts(c).every((v) => v.endsWith(':allow'))).toBe(true);
  });

  it('a halt (the kill switch tripped) is a mode of its own, outranks degraded, and leaves opening to the kill switch to refuse', () => {
    const c = new TradingConditions(new ManualClock());
    c.halt('manual: operator');
    expect(c.state).toMatchObject({
      mode: 'halted',
      reasons: ['kill switch tripped (manual: operator)'],
      degraded: false,
    });
    // The conditions allow; the kill switch guard refuses with its own rule and reason.
    expect(verdicts(c)).toEqual(['o:allow', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:allow']);
    c.feedDown('socket closed');
    expect(c.state).toMatchObject({
      mode: 'halted',
      reasons: ['kill switch tripped (manual: operator)', 'private feeds down (socket closed)'],
      degraded: true,
    });
    // Halted and degraded at once: the feed's refusal still applies to what opens risk.
    expect(verdicts(c)).toEqual(['o:feed_down', 'r:allow', 'c:allow', 'ca:allow', 'cp:allow', 'l:feed_down']);
    c.resume();
    expect(c.state).toMatchObject({ mode: 'degraded', degraded: true });
    c.feedUp();
    expect(c.state).toMatchObject({ mode: 'trading', reasons: [], degraded: false });
  });

  it('a stop outranks a halt', () => {
    const c = new TradingConditions(new ManualClock());
    c.halt('loss limit reached');
    c.stop('signer revoked');
    expect(c.state.mode).toBe('stopped');
    c.resume();
    expect(c.state.mode).toBe('stopped');
  });

  it('publishes each change of mode or reasons once, with when the mode began', async () => {
    const clock = new ManualClock(1_000);
    const c = new TradingConditions(clock);
    const seen: TradingState[] = [];
    c.state$.subscribe((s) => seen.push(s));
    await clock.advance(500);
    c.feedDown('x');
    c.feedDown('x');
    await clock.advance(500);
    c.feedUp();
    expect(seen.map((s) => [s.mode, s.sinceMs])).toEqual([
      ['trading', 1_000],
      ['degraded', 1_500],
      ['trading', 2_000],
    ]);
  });
});

describe('followConnection', () => {
  it('reports nothing before the first authentication, then down on a loss and up (with a reconcile) on the return', () => {
    const c = new TradingConditions(new ManualClock());
    const connection = new Subject<{ status: string; reason?: string }>();
    let reconciles = 0;
    followConnection(connection, c, () => reconciles++);
    connection.next({ status: 'connecting' });
    connection.next({ status: 'open' });
    expect(c.state.mode).toBe('trading');
    connection.next({ status: 'authenticated' });
    connection.next({ status: 'reconnecting', reason: 'server closed 1006' });
    expect(c.state.reasons).toEqual(['private feeds down (reconnecting: server closed 1006)']);
    connection.next({ status: 'open', reason: 'authentication failed transiently' });
    expect(c.state.mode).toBe('degraded');
    connection.next({ status: 'authenticated' });
    expect(reconciles).toBe(1);
    expect(c.state.mode).toBe('trading');
    connection.next({ status: 'closed' });
    expect(c.state.mode).toBe('trading');
  });
});

describe('OutageWatch', () => {
  it('fires once per degraded period longer than the maximum and keeps the count and the longest period', async () => {
    const clock = new ManualClock();
    const c = new TradingConditions(clock);
    const fired: string[][] = [];
    const watch = new OutageWatch(c, clock, 60_000, (state) => fired.push([...state.reasons]));
    c.feedDown('a');
    await clock.advance(30_000);
    c.feedUp();
    expect(fired).toEqual([]);
    c.feedDown('b');
    await clock.advance(60_000);
    expect(fired).toEqual([['private feeds down (b)']]);
    await clock.advance(60_000);
    expect(fired).toHaveLength(1);
    c.feedUp();
    expect(watch.stats).toEqual({ periods: 2, longestMs: 120_000 });
    watch.dispose();
    expect(clock.pendingSleeps).toBe(0);
  });
});
