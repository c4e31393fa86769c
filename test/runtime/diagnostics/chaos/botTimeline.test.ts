import { describe, expect, it } from 'vitest';
import { botEventOf } from '../../../../src/runtime/diagnostics/chaos/botTimeline.js';

const line = (fields: Record<string, unknown>): string =>
  JSON.stringify({ level: 30, time: 1_795_611_655_848, pid: 1, hostname: 'vm', ...fields });

describe('botEventOf', () => {
  it("reads the lines the audit needs from the bot's pino JSON, stamped with the run", () => {
    expect(botEventOf(line({ status: 'reconnecting', reason: 'stale', msg: 'venue connection' }), 2)).toEqual({
      type: 'connection',
      run: 2,
      atMs: 1_795_611_655_848,
      status: 'reconnecting',
    });
    expect(
      botEventOf(line({ mode: 'degraded', reasons: ['private feeds down (open)'], msg: 'trading state' }), 1),
    ).toEqual({
      type: 'trading',
      run: 1,
      atMs: 1_795_611_655_848,
      mode: 'degraded',
      reasons: ['private feeds down (open)'],
    });
    expect(
      botEventOf(line({ reason: 'max_loss', msg: 'kill switch tripped: cancelling all orders' }), 1),
    ).toMatchObject({ type: 'kill_switch', reason: 'max_loss' });
    expect(botEventOf(line({ trigger: 'reconnect', msg: 'reconciliation done' }), 1)).toMatchObject({
      type: 'reconciled',
    });
    expect(botEventOf(line({ msg: 'bot running' }), 1)).toMatchObject({ type: 'ready' });
  });

  it('ignores other messages, pretty or broken lines and lines without a time', () => {
    expect(botEventOf(line({ msg: 'fill' }), 1)).toBeUndefined();
    expect(botEventOf('[12:00:00] INFO: venue connection', 1)).toBeUndefined();
    expect(botEventOf('{"msg":"venue connection",', 1)).toBeUndefined();
    expect(botEventOf(JSON.stringify({ msg: 'venue connection', status: 'open' }), 1)).toBeUndefined();
  });
});
