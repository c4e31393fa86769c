import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { reconcileAtStop, STOP_RECONCILE_MAX_MS } from '../../../src/runtime/bot/reconcileAtStop.js';

function logger() {
  const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
  return {
    warnings,
    warn: (fields: object, msg?: string) =>
      void warnings.push({ fields: fields as Record<string, unknown>, msg: msg ?? '' }),
  };
}

describe('reconcileAtStop', () => {
  it('waits for the reconciliation and says nothing when it succeeds, leaving no timer behind', async () => {
    const clock = new ManualClock();
    const log = logger();
    let ran = 0;
    await reconcileAtStop(async () => void ran++, { timeoutMs: 5_000, clock, logger: log });
    expect(ran).toBe(1);
    expect(log.warnings).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('warns with the error when the reconciliation fails, and resolves (the stop goes on)', async () => {
    const clock = new ManualClock();
    const log = logger();
    const failure = new Error('GET /v1/trade-history answered 503');
    await reconcileAtStop(() => Promise.reject(failure), { timeoutMs: 5_000, clock, logger: log });
    expect(log.warnings).toEqual([
      {
        fields: { err: failure },
        msg: 'the reconciliation at the stop failed: the next start reads the fills it may have missed from the venue',
      },
    ]);
  });

  it('gives up at the shutdown timeout on a reconciliation that never ends, and says so', async () => {
    const clock = new ManualClock();
    const log = logger();
    let done = false;
    const stop = reconcileAtStop(() => new Promise(() => undefined), { timeoutMs: 2_000, clock, logger: log }).then(
      () => (done = true),
    );
    await clock.advance(1_999);
    expect(done).toBe(false);
    await clock.advance(1);
    await stop;
    expect(log.warnings.map((w) => [w.fields, w.msg])).toEqual([
      [
        { limitMs: 2_000 },
        'the reconciliation at the stop took longer than 2000 ms: the next start reads the fills it may have missed from the venue',
      ],
    ]);
  });

  it('waits no longer than STOP_RECONCILE_MAX_MS under a longer shutdown timeout', async () => {
    const clock = new ManualClock();
    const log = logger();
    let done = false;
    const stop = reconcileAtStop(() => new Promise(() => undefined), { timeoutMs: 60_000, clock, logger: log }).then(
      () => (done = true),
    );
    await clock.advance(STOP_RECONCILE_MAX_MS - 1);
    expect(done).toBe(false);
    await clock.advance(1);
    await stop;
    expect(log.warnings[0]?.fields).toEqual({ limitMs: STOP_RECONCILE_MAX_MS });
  });
});
