import { describe, expect, it } from 'vitest';
import { killSwitchTrips } from '../../../../../src/runtime/diagnostics/chaos/audit/killSwitchTrips.js';
import { botEventOf, type BotEvent } from '../../../../../src/runtime/diagnostics/chaos/botTimeline.js';

function line(msg: string, fields: Record<string, unknown> = {}): BotEvent {
  const event = botEventOf(JSON.stringify({ level: 50, time: 1_000, msg, ...fields }), 1);
  if (event === undefined) throw new Error(`not an event: ${msg}`);
  return event;
}

describe('killSwitchTrips', () => {
  it('holds when no kill switch tripped', () => {
    const result = killSwitchTrips([line('trading state', { mode: 'degraded', reasons: ['private feeds down'] })]);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('0');
  });

  it('counts one trip per engine or strategy trip line, not the lines that only say why', () => {
    const result = killSwitchTrips([
      line('outage too long: kill switch tripped; stopping', { reasons: ['private feeds down'] }),
      line('kill switch tripped: cancelling all orders', { reason: 'outage: degraded for more than 300000 ms' }),
      line('strategy kill switch tripped: cancelling its orders', { strategy: 'mm', reason: 'max_loss' }),
    ]);
    expect(result.ok).toBe(false);
    expect(result.measured).toBe('2');
    expect(result.detail).toContain('run 1: outage too long: kill switch tripped; stopping');
  });
});
