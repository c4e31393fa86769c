import { describe, expect, it } from 'vitest';
import type { IntentOutcome } from '../../../../src/engine/intents/intentOutcome.js';
import { refusal } from '../../../../src/engine/intents/refusal.js';
import { HaltedRefusalLog } from '../../../../src/runtime/operations/logging/haltedRefusalLog.js';
import type { Logger } from '../../../../src/runtime/operations/logging/createLogger.js';

function recorder(): { logger: Logger; lines: { level: string; msg: string; fields: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, msg: string): void =>
      void lines.push({ level, msg, fields });
  const logger = { warn: at('warn'), info: at('info'), error: at('error'), debug: at('debug') } as unknown as Logger;
  return { logger, lines };
}

const killed = (strategy: string, n: number): IntentOutcome => ({
  intentId: `${strategy}-${n}`,
  strategy,
  kind: 'placeLimit',
  marketId: 1,
  type: 'refused',
  refusal: refusal(
    'kill_switch',
    'placeLimit',
    'the kill switch is tripped (manual); only cancels and position closes pass',
  ),
  atMs: n,
});

describe('HaltedRefusalLog', () => {
  it("logs a strategy's first kill-switch refusal of a halt, counts the rest, and says how many once it resumes", () => {
    const { logger, lines } = recorder();
    const log = new HaltedRefusalLog(logger);
    for (let n = 1; n <= 26; n++) expect(log.take(killed('mm', n))).toBe(true);
    expect(log.take(killed('grid', 1))).toBe(true);
    expect(lines.map((l) => [l.level, l.fields['strategy'], l.fields['intentId']])).toEqual([
      ['warn', 'mm', 'mm-1'],
      ['warn', 'grid', 'grid-1'],
    ]);
    expect(lines[0]?.fields['reason']).toContain('the kill switch is tripped');
    log.resumed('mm');
    log.resumed('mm');
    expect(lines.slice(2).map((l) => [l.level, l.fields])).toEqual([['info', { strategy: 'mm', refusedUnlogged: 25 }]]);
    // The next halt is announced again.
    expect(log.take(killed('mm', 27))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', fields: { intentId: 'mm-27' } });
  });

  it('leaves every other outcome to the outcome log', () => {
    const { logger, lines } = recorder();
    const log = new HaltedRefusalLog(logger);
    const other: IntentOutcome = {
      ...killed('mm', 1),
      refusal: refusal('max_open_orders', 3, 'too many'),
    } as IntentOutcome;
    const accepted: IntentOutcome = {
      intentId: 'a',
      strategy: 'mm',
      kind: 'placeLimit',
      marketId: 1,
      type: 'accepted',
      atMs: 1,
    };
    expect(log.take(other)).toBe(false);
    expect(log.take(accepted)).toBe(false);
    expect(lines).toEqual([]);
  });
});
