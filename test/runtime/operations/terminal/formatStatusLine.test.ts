import { describe, expect, it } from 'vitest';
import type { BotStatus } from '../../../../src/runtime/operations/control/botStatus.js';
import { formatStatusLine } from '../../../../src/runtime/operations/terminal/formatStatusLine.js';

const status = {
  generatedAtMs: Date.UTC(2026, 10, 25, 12, 0, 5),
  mode: 'trading',
  killSwitch: { tripped: false },
  degraded: { active: false, reasons: [] },
  strategies: [
    {
      name: 'mm',
      status: 'running',
      markets: [1],
      positions: [{ marketId: 1, signedSize: '0.002' }],
      pnl: { netPnl: '-0.12' },
      display: { pnl: { netPnl: '-0.120000' } },
      openOrders: 2,
      killSwitch: { tripped: false },
      feed: { stale: false },
    },
    {
      name: 'grid',
      status: 'running',
      markets: [1, 2],
      positions: [],
      pnl: null,
      display: { pnl: null },
      openOrders: 5,
      killSwitch: { tripped: false },
      feed: { stale: true },
    },
  ],
  streams: [
    { channel: 'mark', marketId: 1, ageMs: 240, stale: false },
    { channel: 'book', marketId: 1, ageMs: 6200, stale: true, budgetMs: 5000 },
    { channel: 'orders', ageMs: 100, stale: false },
  ],
} as unknown as BotStatus;

describe('formatStatusLine', () => {
  it('one line: mode, each strategy (position, netPnl as shown, open orders, flags), the market streams', () => {
    expect(formatStatusLine(status)).toBe(
      '── 12:00:05 TRADING | mm: pos 0.002 netPnl -0.120000 orders 2 | grid: pos 0 netPnl ? orders 5 REDUCE-ONLY | feeds mark:1 0.2s book:1 6.2s!',
    );
  });

  it('says when degraded and when the kill switch tripped', () => {
    const bad = {
      ...status,
      mode: 'degraded',
      degraded: { active: true, reasons: ['private feeds down (socket closed)'] },
      killSwitch: { tripped: true, reason: 'loss limit' },
      strategies: [],
      streams: [],
    } as unknown as BotStatus;
    expect(formatStatusLine(bad)).toBe(
      '── 12:00:05 DEGRADED | degraded: private feeds down (socket closed) | KILL SWITCH: loss limit',
    );
  });

  it('says HALTED, and which strategies a halt binds, without calling a halt degraded', () => {
    const halted = {
      ...status,
      mode: 'halted',
      degraded: { active: false, reasons: ['kill switch tripped (operator)'] },
      killSwitch: { tripped: true, reason: 'operator' },
      strategies: [{ ...status.strategies[0], status: 'halted' }],
      streams: [],
    } as unknown as BotStatus;
    expect(formatStatusLine(halted)).toBe(
      '── 12:00:05 HALTED | mm: pos 0.002 netPnl -0.120000 orders 2 halted | KILL SWITCH: operator',
    );
  });
});
