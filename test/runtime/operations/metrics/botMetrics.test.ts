import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.js';
import { NO_JOURNAL } from '../../../../src/engine/tracking/engineJournal.js';
import type { IntentOutcome } from '../../../../src/engine/intents/intentOutcome.js';
import { placeLimit } from '../../../../src/engine/intents/intentBuilders.js';
import type { TrackedFill } from '../../../../src/engine/tracking/orderTracker.js';
import { refusal } from '../../../../src/engine/intents/refusal.js';
import type { BotStatus } from '../../../../src/runtime/operations/control/botStatus.js';
import { FeedClock } from '../../../../src/runtime/bot/freshness/feedClock.js';
import type { FreshnessChange } from '../../../../src/runtime/bot/freshness/freshnessBudgets.js';
import { BotMetrics } from '../../../../src/runtime/operations/metrics/botMetrics.js';
import { meteredJournal } from '../../../../src/runtime/operations/metrics/meteredJournal.js';
import { observeBotMetrics } from '../../../../src/runtime/operations/metrics/observeBotMetrics.js';
import { errorKind, timedRestClient } from '../../../../src/runtime/operations/metrics/timedRestClient.js';
import type { RestClient } from '../../../../src/venue/rest/restClient.js';
import { VenueError } from '../../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../../src/venue/venueTransportError.js';

/** name{labels} -> value, from the exposition text. */
async function samples(metrics: BotMetrics, status?: BotStatus): Promise<Map<string, number>> {
  const text = await metrics.render(status);
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const base = { strategy: 'mm', kind: 'placeLimit' as const, marketId: 1, atMs: 0 };

describe('the bot metrics', () => {
  it('count outcomes by kind and outcome, refusals by rule, unknowns, fills and freshness breaches', async () => {
    const metrics = new BotMetrics();
    const outcomes = new Subject<IntentOutcome>();
    const fills = new Subject<TrackedFill>();
    const freshness = new Subject<FreshnessChange>();
    observeBotMetrics(metrics, { outcomes, fills$: fills, freshness$: freshness });
    outcomes.next({ ...base, intentId: 'a', type: 'accepted', orderId: '0x1' });
    outcomes.next({ ...base, intentId: 'b', type: 'refused', refusal: refusal('feed_stale', 'x', 'late') });
    outcomes.next({ ...base, intentId: 'c', type: 'unknown', reason: 'timeout' });
    fills.next({
      id: 'f',
      marketId: 1,
      orderId: '0x1',
      strategy: 'mm',
      side: 'buy',
      price: '1',
      size: '1',
      fee: '0',
      liquidity: 'MAKER',
    });
    fills.next({
      id: 'g',
      marketId: 1,
      orderId: '0x9',
      side: 'sell',
      price: '1',
      size: '1',
      fee: '0',
      liquidity: 'TAKER',
    });
    freshness.next({
      strategy: 'mm',
      stale: true,
      feeds: [{ channel: 'mark', marketId: 1, ageMs: 1500, budgetMs: 1000 }],
    });
    freshness.next({
      strategy: 'mm',
      stale: false,
      feeds: [{ channel: 'mark', marketId: 1, ageMs: 1500, budgetMs: 1000 }],
    });
    const s = await samples(metrics);
    expect(s.get('perpbot_intents_total{strategy="mm",kind="placeLimit",outcome="accepted"}')).toBe(1);
    expect(s.get('perpbot_intents_total{strategy="mm",kind="placeLimit",outcome="refused"}')).toBe(1);
    expect(s.get('perpbot_refusals_total{strategy="mm",rule="FEED_STALE"}')).toBe(1);
    expect(s.get('perpbot_unknown_outcomes_total{strategy="mm",kind="placeLimit"}')).toBe(1);
    expect(s.get('perpbot_fills_total{strategy="mm",market="1",liquidity="MAKER"}')).toBe(1);
    expect(s.get('perpbot_fills_total{strategy="unattributed",market="1",liquidity="TAKER"}')).toBe(1);
    expect(s.get('perpbot_feed_stale_total{strategy="mm",channel="mark",market="1"}')).toBe(1);
    expect(s.has('perpbot_process_resident_memory_bytes')).toBe(true);
  });

  it('time every REST call and count its errors by kind, nonce refusals apart', async () => {
    const metrics = new BotMetrics();
    const nonceUsed = new VenueError({
      httpStatus: 400,
      rawBody: JSON.stringify({ error: { code: 'InvalidArgument', message: 'execution reverted: NonceUsed()' } }),
      endpoint: 'POST /v1/orders/place',
    });
    const rest = timedRestClient(
      {
        markets: async () => ({ markets: [] }),
        placeOrder: async () => {
          throw nonceUsed;
        },
        cancelOrder: async () => {
          throw new VenueTransportError({ kind: 'Timeout', endpoint: 'POST /v1/orders/cancel', timeoutMs: 10 });
        },
      } as unknown as RestClient,
      metrics,
    );
    await rest.markets();
    await expect(rest.placeOrder({} as never)).rejects.toBe(nonceUsed);
    await expect(rest.cancelOrder({} as never)).rejects.toThrow('timed out');
    const s = await samples(metrics);
    expect(errorKind(nonceUsed)).toBe('NonceUsed');
    expect(s.get('perpbot_rest_request_duration_seconds_count{endpoint="markets",outcome="ok"}')).toBe(1);
    expect(s.get('perpbot_venue_errors_total{endpoint="placeOrder",kind="NonceUsed"}')).toBe(1);
    expect(s.get('perpbot_nonce_errors_total{kind="NonceUsed"}')).toBe(1);
    expect(s.get('perpbot_venue_errors_total{endpoint="cancelOrder",kind="transport_Timeout"}')).toBe(1);
  });

  it('count resends and time tick-to-trade from the journal hooks, after the journal recorded each step', async () => {
    const metrics = new BotMetrics();
    const clock = new ManualClock();
    const feeds = new FeedClock(clock);
    const recorded: string[] = [];
    const journal = meteredJournal(
      { ...NO_JOURNAL, requestSent: (e) => void recorded.push(`sent ${e.attempt}`) },
      metrics,
      feeds,
    );
    feeds.touch('mark', 1);
    const intent = placeLimit({
      intentId: 'i',
      strategy: 'mm',
      marketId: 1,
      side: 'buy',
      size: '1',
      price: '1',
      postOnly: true,
    });
    journal.intentReceived(intent, 0);
    const request = { intentId: 'i', endpoint: 'placeOrder' as const, body: {}, atMs: 0 };
    journal.requestSent({ ...request, attempt: 1 });
    journal.requestSent({ ...request, attempt: 2 });
    journal.requestSent({ ...request, attempt: 3 });
    expect(recorded).toEqual(['sent 1', 'sent 2', 'sent 3']);
    const s = await samples(metrics);
    expect(s.get('perpbot_resends_total{endpoint="placeOrder"}')).toBe(2);
    // Once per intent, at its first send.
    expect(s.get('perpbot_tick_to_trade_seconds_count{strategy="mm",market="1"}')).toBe(1);
    expect(s.get('perpbot_tick_to_trade_seconds_sum{strategy="mm",market="1"}')).toBeGreaterThan(0);
  });

  it('set the gauges from the status snapshot, and move running totals by what changed since the last scrape', async () => {
    const metrics = new BotMetrics();
    const status = {
      ready: { ready: false },
      mode: 'degraded',
      killSwitch: { tripped: true },
      lossLimit: '500',
      journal: { writable: true, keptRecords: 0, fallbackFile: 'journal.sqlite.fallback.jsonl' },
      streams: [
        { channel: 'mark', marketId: 1, ageMs: 1500 },
        { channel: 'orders', ageMs: 200 },
      ],
      positions: [{ marketId: 1, signedSize: '-0.002' }],
      balance: '999.5',
      equity: '999.25',
      pnl: { realisedPnl: '-0.5', unrealisedPnl: '-0.25', fees: '0.01', netPnl: '-0.76' },
      unattributed: { fills: 1, pnl: { realisedPnl: '0', unrealisedPnl: '0.125', fees: '0', netPnl: '0.125' } },
      strategies: [
        {
          name: 'mm',
          killSwitch: { tripped: false },
          lossLimit: '100',
          feed: { stale: true },
          status: 'running',
          positions: [{ marketId: 1, signedSize: '-0.002' }],
          pnl: { realisedPnl: '1', unrealisedPnl: '0', fees: '0.002', netPnl: '0.998' },
          quoteUptime: [
            {
              marketId: 1,
              wantedMs: 60_000,
              heldMs: 58_500,
              uptime: 0.975,
              missing: 0.025,
              none: 0.005,
              requotes: 40,
              requoteLatencyMs: { p50: 12, p99: 45 },
              actionsPerRequote: 2.5,
            },
          ],
        },
      ],
      openOrders: [
        { strategy: 'mm', marketId: 1, state: 'open' },
        { strategy: 'mm', marketId: 1, state: 'submitted' },
        { strategy: 'mm', marketId: 1, state: 'queued' },
      ],
      connection: { reconnects: 2 },
      degraded: { totalMs: 1500 },
      busyPoll: 'spinning',
    } as unknown as BotStatus;
    let s = await samples(metrics, status);
    expect(s.get('perpbot_ready')).toBe(0);
    expect(s.get('perpbot_trading_mode{mode="degraded"}')).toBe(1);
    expect(s.get('perpbot_trading_mode{mode="trading"}')).toBe(0);
    expect(s.get('perpbot_kill_switch_tripped{scope="account"}')).toBe(1);
    expect(s.get('perpbot_feed_age_seconds{channel="mark",market="1"}')).toBe(1.5);
    expect(s.get('perpbot_feed_age_seconds{channel="orders",market=""}')).toBe(0.2);
    expect(s.get('perpbot_position_size{market="1"}')).toBe(-0.002);
    expect(s.get('perpbot_balance_usdc')).toBe(999.5);
    expect(s.get('perpbot_pnl_usdc{strategy="account",kind="net"}')).toBe(-0.76);
    expect(s.get('perpbot_pnl_usdc{strategy="account",kind="fees"}')).toBe(0.01);
    expect(s.get('perpbot_pnl_usdc{strategy="mm",kind="net"}')).toBe(0.998);
    expect(s.get('perpbot_pnl_usdc{strategy="unattributed",kind="unrealised"}')).toBe(0.125);
    expect(s.get('perpbot_strategy_reduce_only{strategy="mm"}')).toBe(1);
    expect(s.get('perpbot_quote_uptime_ratio{strategy="mm",market="1"}')).toBe(0.975);
    expect(s.get('perpbot_quote_missing_ratio{strategy="mm",market="1",all="false"}')).toBe(0.025);
    expect(s.get('perpbot_quote_missing_ratio{strategy="mm",market="1",all="true"}')).toBe(0.005);
    expect(s.get('perpbot_requote_latency_p99_seconds{strategy="mm",market="1"}')).toBe(0.045);
    expect(s.get('perpbot_actions_per_requote{strategy="mm",market="1"}')).toBe(2.5);
    expect(s.get('perpbot_quote_wanted_seconds_total{strategy="mm",market="1"}')).toBe(60);
    expect(s.get('perpbot_quote_held_seconds_total{strategy="mm",market="1"}')).toBe(58.5);
    // Held by the engine for admission: queued, not open.
    expect(s.get('perpbot_open_orders{strategy="mm",market="1"}')).toBe(2);
    expect(s.get('perpbot_orders_queued{strategy="mm"}')).toBe(1);
    expect(s.get('perpbot_reconnects_total')).toBe(2);
    expect(s.get('perpbot_degraded_seconds_total')).toBe(1.5);
    expect(s.get('perpbot_busy_poll_spinning')).toBe(1);
    s = await samples(metrics, {
      ...status,
      connection: { reconnects: 3 },
      degraded: { ...status.degraded, totalMs: 4000 },
      busyPoll: 'parked',
    } as BotStatus);
    expect(s.get('perpbot_busy_poll_spinning')).toBe(0);
    expect(s.get('perpbot_orders_queued{strategy="mm"}')).toBe(1);
    s = await samples(metrics, { ...status, openOrders: [] });
    // Nothing queued: zero, so the graph shows the wait ending.
    expect(s.get('perpbot_orders_queued{strategy="mm"}')).toBe(0);
    expect(s.get('perpbot_reconnects_total')).toBe(3);
    expect(s.get('perpbot_degraded_seconds_total')).toBe(4);
  });
});
