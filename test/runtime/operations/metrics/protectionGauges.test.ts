import { describe, expect, it } from 'vitest';
import type { BotStatus, ProtectionStatus } from '../../../../src/runtime/operations/control/botStatus.js';
import { BotMetrics } from '../../../../src/runtime/operations/metrics/botMetrics.js';
import { parsePrometheus } from '../../../e2e/support/serviceBot.js';

/** A status with only what the protection gauges read (the rest of the gauges skip what is missing). */
function statusWith(protection: ProtectionStatus | null): BotStatus {
  return {
    ready: { ready: true, reasons: [], warnings: [] },
    mode: 'trading',
    killSwitch: { tripped: false },
    lossLimit: '500',
    journal: { writable: true, keptRecords: 0, fallbackFile: 'f' },
    streams: [],
    positions: [],
    balance: null,
    equity: null,
    pnl: null,
    unattributed: { fills: 0, pnl: null },
    strategies: [],
    openOrders: [],
    connection: { status: 'authenticated', reconnects: 0 },
    degraded: { totalMs: 0 },
    busyPoll: 'off',
    protection,
  } as unknown as BotStatus;
}

const order = (o: Partial<ProtectionStatus['orders'][number]>): ProtectionStatus['orders'][number] => ({
  id: 'tpsl-1',
  venueId: '0x01',
  strategy: 'mm',
  marketId: 1,
  role: 'stop_loss',
  side: 'SELL',
  size: '0.003',
  stopPrice: '64675.5',
  trigger: 'mark',
  state: 'accepted',
  ...o,
});

/** The TP/SL series of one scrape, `role/state` -> value, for a strategy and market. */
async function tpsl(metrics: BotMetrics, status: BotStatus, strategy = 'mm', market = '1') {
  const samples = parsePrometheus(await metrics.render(status));
  return {
    orders: Object.fromEntries(
      samples
        .filter((s) => s.name === 'perpbot_tpsl_orders' && s.labels['strategy'] === strategy)
        .filter((s) => s.labels['market'] === market)
        .map((s) => [`${s.labels['role']}/${s.labels['state']}`, s.value]),
    ),
    unprotected: samples.find(
      (s) =>
        s.name === 'perpbot_position_unprotected' && s.labels['strategy'] === strategy && s.labels['market'] === market,
    )?.value,
    budgetLow: samples.find((s) => s.name === 'perpbot_protection_budget_low')?.value,
    all: samples,
  };
}

describe('the protection gauges, read from the status’s protection', () => {
  it('count the engine’s TP/SL orders by role and state, each held state at 0 until an order is in it', async () => {
    const metrics = new BotMetrics();
    const protection: ProtectionStatus = {
      venueRefusal: null,
      budgetWarning: null,
      positions: [{ strategy: 'mm', marketId: 1, unprotected: false, unprotectedSinceMs: null, emulated: false }],
      orders: [
        order({ id: 'a', role: 'stop_loss', state: 'accepted' }),
        // A resize: the new leg placed before the old one is cancelled.
        order({ id: 'b', role: 'stop_loss', state: 'placing', size: '0.004' }),
        order({ id: 'c', role: 'take_profit', state: 'accepted', side: 'SELL', stopPrice: '66000' }),
      ],
    };
    const seen = await tpsl(metrics, statusWith(protection));
    expect(seen.orders).toEqual({
      'stop_loss/placing': 1,
      'stop_loss/accepted': 1,
      'stop_loss/triggered': 0,
      'stop_loss/emulated': 0,
      'stop_loss/cancelling': 0,
      'take_profit/placing': 0,
      'take_profit/accepted': 1,
      'take_profit/triggered': 0,
      'take_profit/emulated': 0,
      'take_profit/cancelling': 0,
    });
    expect(seen.unprotected).toBe(0);
    expect(seen.budgetLow).toBe(0);

    // The next scrape: the old leg cancelling, the new one accepted; nothing of the last scrape stays counted.
    const next = await tpsl(
      metrics,
      statusWith({
        ...protection,
        orders: [
          order({ id: 'a', state: 'cancelling' }),
          order({ id: 'b', state: 'accepted', size: '0.004' }),
          order({ id: 'c', role: 'take_profit', state: 'accepted' }),
        ],
      }),
    );
    expect(next.orders['stop_loss/placing']).toBe(0);
    expect(next.orders['stop_loss/accepted']).toBe(1);
    expect(next.orders['stop_loss/cancelling']).toBe(1);
    expect(next.orders['take_profit/accepted']).toBe(1);
  });

  it('a venue that refuses TP/SL: the stop counted as emulated, the position unprotected, the budget low', async () => {
    const metrics = new BotMetrics();
    const seen = await tpsl(
      metrics,
      statusWith({
        venueRefusal: 'the venue refused a TP/SL order: blocked pending signature verification',
        budgetWarning: 'no OperatorHub allowance journaled',
        positions: [{ strategy: 'mm', marketId: 1, unprotected: true, unprotectedSinceMs: 5, emulated: true }],
        orders: [order({ venueId: null, state: 'emulated' })],
      }),
    );
    expect(seen.orders['stop_loss/emulated']).toBe(1);
    expect(seen.orders['stop_loss/accepted']).toBe(0);
    expect(seen.unprotected).toBe(1);
    expect(seen.budgetLow).toBe(1);
  });

  it('a position no longer protected leaves no series behind; labels carry no id, size or price', async () => {
    const metrics = new BotMetrics();
    const two: ProtectionStatus = {
      venueRefusal: null,
      budgetWarning: null,
      positions: [
        { strategy: 'mm', marketId: 1, unprotected: false, unprotectedSinceMs: null, emulated: false },
        { strategy: 'trend', marketId: 2, unprotected: false, unprotectedSinceMs: null, emulated: false },
      ],
      orders: [order({}), order({ id: 'd', strategy: 'trend', marketId: 2, side: 'BUY', stopPrice: '3100.25' })],
    };
    const first = await tpsl(metrics, statusWith(two), 'trend', '2');
    expect(first.orders['stop_loss/accepted']).toBe(1);
    for (const s of first.all.filter((s) => s.name.startsWith('perpbot_tpsl') || s.name.includes('unprotected')))
      for (const value of Object.values(s.labels)) expect(value).not.toMatch(/^(0x|tpsl-)|\.\d/);
    const after = await tpsl(
      metrics,
      statusWith({ ...two, positions: two.positions.slice(0, 1), orders: [order({})] }),
    );
    expect(after.all.filter((s) => s.labels['strategy'] === 'trend')).toEqual([]);
    // No strategy protected: no TP/SL series at all.
    const none = await tpsl(metrics, statusWith(null));
    expect(
      none.all.filter((s) => s.name === 'perpbot_tpsl_orders' || s.name === 'perpbot_position_unprotected'),
    ).toEqual([]);
  });
});
