import { describe, expect, it } from 'vitest';
import { reconnectsOf, reconnectTime } from '../../../../../src/runtime/diagnostics/chaos/audit/reconnectTime.js';
import { connection, mode, reconnect, runOf } from './timelineFixtures.js';

describe('reconnectTime', () => {
  it('measures from reconnecting to trading after re-authentication: p50 and max', () => {
    const events = [mode(1, 'trading'), ...reconnect(10, 0.3, 1), ...reconnect(20, 0.3, 2), ...reconnect(30, 0.3, 7)];
    const result = reconnectTime(events, [runOf(1, 0, 60)], { maxReconnectMs: 10_000, maxOutageMs: 300_000 }, 60_000);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('3 done, p50 2.0 s, max 7.0 s (limit 10.0 s)');
  });

  it('a trading line before the connection authenticated again does not end the reconnect', () => {
    const events = [
      connection(10, 'reconnecting'),
      mode(10.5, 'trading'),
      connection(12, 'authenticated'),
      mode(13, 'trading'),
    ];
    expect(reconnectsOf(events, [runOf(1, 0, 60)])).toEqual([{ run: 1, fromMs: 10_000, toMs: 13_000 }]);
  });

  it('fails when a reconnect took as long as the reconnect limit (2 s by default), though well within the outage limit', () => {
    const events = [...reconnect(10, 0.3, 2)];
    const result = reconnectTime(events, [runOf(1, 0, 60)], { maxReconnectMs: 2_000, maxOutageMs: 300_000 }, 60_000);
    expect(result.ok).toBe(false);
    expect(result.detail).toBe('the longest reconnect took 2.0 s, at or past 2.0 s (--max-reconnect-ms)');
    expect(
      reconnectTime(
        [...reconnect(10, 0.3, 1.9)],
        [runOf(1, 0, 60)],
        { maxReconnectMs: 2_000, maxOutageMs: 300_000 },
        60_000,
      ).ok,
    ).toBe(true);
  });

  it('a reconnect cut short by the end of its run is apart; it fails only if it lasted the outage limit already', () => {
    const limits = { maxReconnectMs: 2_000, maxOutageMs: 10_000 };
    const cutEarly = reconnectTime([connection(58, 'reconnecting')], [runOf(1, 0, 60)], limits, 60_000);
    expect(cutEarly.ok).toBe(true);
    expect(cutEarly.data).toMatchObject({ reconnects: 1, completed: 0, cutByExit: 1 });
    const stuck = reconnectTime([connection(20, 'reconnecting')], [runOf(1, 0, 60)], limits, 60_000);
    expect(stuck.ok).toBe(false);
    expect(stuck.detail).toContain('never resumed trading');
  });
});
