import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { TradingConditions } from '../../src/engine/admission/tradingConditions.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { JOURNAL_RECONCILER, ReconcilerGate } from '../../src/journal/reconcilerGate.js';

const opening = placeLimit({ strategy: 's', marketId: 1, intentId: 'o', side: 'buy', size: '1', price: '100' });

function refusalHints(conditions: TradingConditions): readonly string[] {
  const verdict = conditions.verdict(opening, DEFAULT_ENGINE_CONFIG.degraded);
  if (verdict.kind !== 'refuse') throw new Error(`expected a refusal, got ${verdict.kind}`);
  return verdict.refusal.hints;
}

describe('ReconcilerGate', () => {
  it('holds intents while the journal reconciles and lets them through once it succeeded', () => {
    const conditions = new TradingConditions(new ManualClock());
    const gate = new ReconcilerGate(conditions, 8);
    conditions.registerReconciler(JOURNAL_RECONCILER);
    gate.running();
    expect(conditions.state).toMatchObject({
      mode: 'degraded',
      reconciling: true,
      reasons: ['journal reconciliation after the reconnect not done yet'],
    });
    expect(conditions.verdict(opening, DEFAULT_ENGINE_CONFIG.degraded).kind).toBe('wait');
    gate.succeeded();
    expect(conditions.state).toMatchObject({ mode: 'trading', reconciling: false, reasons: [] });
  });

  it('refuses with the failure as the reason and says what comes next: the next attempt, or the next reconnect', () => {
    const conditions = new TradingConditions(new ManualClock());
    const gate = new ReconcilerGate(conditions, 3);
    conditions.registerReconciler(JOURNAL_RECONCILER);
    gate.failed('reconciliation after a reconnect failed (timeout)', 1);
    expect(conditions.state.reasons).toEqual(['reconciliation after a reconnect failed (timeout)']);
    expect(refusalHints(conditions)).toEqual(['the bot retries reconciliation shortly (attempt 2 of 3)']);
    gate.failed('reconciliation after a reconnect failed (timeout)', 3);
    expect(refusalHints(conditions)).toEqual(['reconciliation failed 3 times: the bot retries at the next reconnect']);
    gate.failed('reconciliation after a reconnect failed (timeout)');
    expect(refusalHints(conditions)).toEqual(['the bot retries reconciliation at the next reconnect']);
  });
});
