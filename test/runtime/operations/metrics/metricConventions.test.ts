import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { IntentOutcome } from '../../../../src/engine/intents/intentOutcome.js';
import { refusal } from '../../../../src/engine/intents/refusal.js';
import type { TrackedFill } from '../../../../src/engine/tracking/orderTracker.js';
import type { BotStatus } from '../../../../src/runtime/operations/control/botStatus.js';
import type { FreshnessChange } from '../../../../src/runtime/freshness/freshnessBudgets.js';
import { BotMetrics } from '../../../../src/runtime/operations/metrics/botMetrics.js';
import { observeBotMetrics } from '../../../../src/runtime/operations/metrics/observeBotMetrics.js';
import { parsePrometheus } from '../../../e2e/support/serviceBot.js';
import { promtool } from '../../../deploy/support/promtool.js';

const ORDER_ID = '0x00000000000000000000000000000000000000000000000000000000000a11ce';
const FILL_ID = 'fill-7731';
const TPSL_ID = 'run1-tpsl-3';
const PRICES = ['64987.5', '64990.25', '65001.75'];
const ACCOUNT = '0x1111111111111111111111111111111111111111';

/** A bot's status with every part filled in: orders with ids and prices, fills, positions, PnL. */
function busyStatus(): BotStatus {
  const pnl = { realisedPnl: '-1.5', unrealisedPnl: '0.25', fees: '0.125', netPnl: '-1.375' };
  return {
    account: ACCOUNT,
    ready: { ready: true, reasons: [], warnings: [] },
    mode: 'trading',
    killSwitch: { tripped: false },
    lossLimit: '500',
    journal: { writable: false, keptRecords: 3, fallbackFile: '/data/journal.sqlite.fallback.jsonl' },
    streams: [
      { channel: 'mark', marketId: 1, ageMs: 250, lastAtMs: 1, stale: false },
      { channel: 'orders', ageMs: 900, lastAtMs: 1, stale: false },
    ],
    positions: [
      { marketId: 1, side: 'buy', size: '0.002', signedSize: '0.002', entryPrice: PRICES[0], markPrice: PRICES[1] },
    ],
    balance: '1000.5',
    equity: '1000.75',
    pnl,
    unattributed: { fills: 0, pnl },
    strategies: [
      {
        name: 'mm',
        status: 'running',
        markets: [1],
        openOrders: 1,
        positions: [{ marketId: 1, signedSize: '0.002' }],
        pnl,
        killSwitch: { tripped: false },
        lossLimit: '100',
        feed: { stale: false, budgets: {}, staleFeeds: [] },
      },
    ],
    openOrders: [
      {
        intentId: 'run1-mm-17',
        strategy: 'mm',
        marketId: 1,
        side: 'buy',
        size: '0.001',
        price: PRICES[2],
        filledSize: '0',
        state: 'open',
        orderId: ORDER_ID,
        orderIdShort: 'a11ce',
      },
    ],
    recentFills: [],
    connection: { status: 'authenticated', reconnects: 1 },
    degraded: { totalMs: 2500 },
    busyPoll: 'off',
    protection: {
      venueRefusal: null,
      budgetWarning: 'expires within a day',
      positions: [{ strategy: 'mm', marketId: 1, unprotected: false, unprotectedSinceMs: null, emulated: false }],
      orders: [
        {
          id: TPSL_ID,
          venueId: ORDER_ID,
          strategy: 'mm',
          marketId: 1,
          role: 'stop_loss',
          side: 'SELL',
          size: '0.002',
          stopPrice: PRICES[0],
          trigger: 'mark',
          state: 'accepted',
        },
      ],
    },
  } as unknown as BotStatus;
}

/** A BotMetrics that has seen one of everything, so every family has samples. */
async function exercisedMetrics(): Promise<string> {
  const metrics = new BotMetrics();
  metrics.identify({ account: ACCOUNT, version: '0.1.0', config: 'desk-a', profile: 'sim' });
  const outcomes = new Subject<IntentOutcome>();
  const fills = new Subject<TrackedFill>();
  const freshness = new Subject<FreshnessChange>();
  observeBotMetrics(metrics, { outcomes, fills$: fills, freshness$: freshness });
  const base = { strategy: 'mm', kind: 'placeLimit' as const, marketId: 1, atMs: 0 };
  outcomes.next({ ...base, intentId: 'run1-mm-17', type: 'accepted', orderId: ORDER_ID });
  outcomes.next({ ...base, intentId: 'run1-mm-18', type: 'refused', refusal: refusal('feed_stale', 'x', 'late') });
  outcomes.next({ ...base, intentId: 'run1-mm-19', type: 'unknown', reason: 'timeout' });
  fills.next({
    id: FILL_ID,
    marketId: 1,
    orderId: ORDER_ID,
    strategy: 'mm',
    side: 'buy',
    price: PRICES[0] as string,
    size: '0.002',
    fee: '0.01',
    liquidity: 'MAKER',
  });
  freshness.next({
    strategy: 'mm',
    stale: true,
    feeds: [{ channel: 'mark', marketId: 1, ageMs: 1500, budgetMs: 1000 }],
  });
  metrics.restLatency.observe({ endpoint: 'placeOrder', outcome: 'ok' }, 0.012);
  metrics.tickToTrade.observe({ strategy: 'mm', market: '1' }, 0.0004);
  metrics.venueErrors.inc({ endpoint: 'placeOrder', kind: 'NonceUsed' });
  metrics.nonceErrors.inc({ kind: 'NonceUsed' });
  metrics.resends.inc({ endpoint: 'placeOrder' });
  metrics.restRetries.inc({ endpoint: 'markets' });
  metrics.wireDecodeFailures.inc({ source: 'ws:orders' });
  metrics.alerts.inc({ event: 'degraded', result: 'sent' });
  return metrics.render(busyStatus());
}

describe('the metrics follow the Prometheus conventions', () => {
  it('promtool check metrics reports nothing on the whole exposition', async () => {
    const text = await exercisedMetrics();
    // The three gauges prom-client names like counters are gone; their by-type gauges stay.
    expect(text).not.toContain('perpbot_nodejs_active_handles_total');
    expect(text).toContain('# TYPE perpbot_nodejs_active_handles gauge');
    const run = await promtool(['check', 'metrics'], text);
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.code).toBe(0);
  });

  it('and says so when a name breaks them (the check is not blind)', async () => {
    const run = await promtool(
      ['check', 'metrics'],
      '# HELP x_seconds_total a\n# TYPE x_seconds_total gauge\nx_seconds_total 1\n',
    );
    expect(run.stdout + run.stderr).toContain('non-counter metrics should not have "_total" suffix');
  });

  it('perpbot_info carries the account, version, config name and profile, for joins', async () => {
    const samples = parsePrometheus(await exercisedMetrics());
    expect(samples.filter((s) => s.name === 'perpbot_info')).toEqual([
      {
        name: 'perpbot_info',
        labels: { account: ACCOUNT, version: '0.1.0', config: 'desk-a', profile: 'sim' },
        value: 1,
      },
    ]);
  });

  it('every counter ends in _total, every other family does not, and units are base units', async () => {
    const text = await exercisedMetrics();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      expect(name!.endsWith('_total'), `${name} (${type})`).toBe(type === 'counter');
      expect(name, 'no ms, minutes or kilobytes').not.toMatch(
        /_(ms|milliseconds|minutes|hours|kb|kilobytes|mb|megabytes)(_|$)/,
      );
    }
  });

  it('labels stay bounded: no order id, fill id, intent id or price in any label value', async () => {
    const samples = parsePrometheus(await exercisedMetrics());
    const unbounded = [ORDER_ID, 'a11ce', FILL_ID, TPSL_ID, 'run1-mm-17', 'run1-mm-18', ...PRICES];
    for (const sample of samples)
      for (const [label, value] of Object.entries(sample.labels)) {
        expect(unbounded, `${sample.name}{${label}="${value}"}`).not.toContain(value);
        // A histogram's bucket bounds are its own; any other decimal in a label would be a price or a size.
        if (label !== 'le') expect(value, `${sample.name}{${label}}`).not.toMatch(/^-?\d+\.\d+$/);
      }
  });

  it('the loss limits and the journal fallback are gauges read from the status', async () => {
    const samples = parsePrometheus(await exercisedMetrics());
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('perpbot_loss_limit_usdc', { strategy: 'account' })).toBe(500);
    expect(value('perpbot_loss_limit_usdc', { strategy: 'mm' })).toBe(100);
    expect(value('perpbot_journal_fallback_active')).toBe(1);
    expect(value('perpbot_journal_fallback_records')).toBe(3);
  });
});
