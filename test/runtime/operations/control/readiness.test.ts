import { describe, expect, it } from 'vitest';
import type { TradingState } from '../../../../src/engine/admission/tradingConditions.js';
import { readinessOf } from '../../../../src/runtime/operations/control/readiness.js';

const trading: TradingState = { mode: 'trading', reasons: [], sinceMs: 0, reconciling: false };
const ready = {
  phase: 'running',
  connection: { status: 'authenticated' },
  trading,
  killSwitch: { tripped: false },
  warnings: [],
} as const;

describe('readinessOf', () => {
  it('is ready only while trading: connected, reconciled, not degraded, kill switch armed', () => {
    expect(readinessOf(ready)).toEqual({ ready: true, reasons: [], warnings: [] });
  });

  it.each([
    ['stopping', { ...ready, phase: 'stopping' as const }, ['the bot is stopping']],
    [
      'reconnecting',
      { ...ready, connection: { status: 'reconnecting', reason: 'socket closed (1006)' } },
      ['venue connection reconnecting (socket closed (1006))'],
    ],
    [
      'degraded',
      {
        ...ready,
        trading: {
          ...trading,
          mode: 'degraded' as const,
          reasons: ['private feeds down (socket closed)', 'engine reconciliation after the reconnect not done yet'],
        },
      },
      [
        'degraded: private feeds down (socket closed)',
        'degraded: engine reconciliation after the reconnect not done yet',
      ],
    ],
    [
      'reconciling',
      { ...ready, trading: { ...trading, reconciling: true } },
      ['a reconciliation with the venue is running'],
    ],
    [
      'stopped',
      { ...ready, trading: { ...trading, mode: 'stopped' as const, reasons: ['outage'] } },
      ['trading stopped: outage'],
    ],
    ['tripped', { ...ready, killSwitch: { tripped: true, reason: 'loss limit' } }, ['kill switch tripped: loss limit']],
  ])('is not ready when %s, and says why', (_case, input, reasons) => {
    expect(readinessOf(input)).toEqual({ ready: false, reasons, warnings: [] });
  });

  it('keeps a reduce-only strategy as a warning, not a reason', () => {
    expect(readinessOf({ ...ready, warnings: ['strategy mm is reduce-only (FEED_STALE): ...'] })).toEqual({
      ready: true,
      reasons: [],
      warnings: ['strategy mm is reduce-only (FEED_STALE): ...'],
    });
  });
});
