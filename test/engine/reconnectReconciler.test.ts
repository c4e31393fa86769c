import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { TradingConditions } from '../../src/engine/admission/tradingConditions.js';
import { ENGINE_RECONCILER, ReconnectReconciler } from '../../src/engine/reconnectReconciler.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Conditions just after a reconnect (the engine's reconciliation due) and a reconcile that fails `failures` times. */
function setup(failures: number) {
  const clock = new ManualClock(0);
  const conditions = new TradingConditions(clock);
  conditions.registerReconciler(ENGINE_RECONCILER);
  conditions.feedDown('reconnecting');
  conditions.feedUp();
  let calls = 0;
  let stopping = false;
  const abort = new AbortController();
  const reconciler = new ReconnectReconciler({
    conditions,
    reconcile: async () => {
      calls++;
      if (calls <= failures) throw new Error(`read ${calls} failed`);
    },
    clock,
    log: quiet,
    signal: abort.signal,
    stopping: () => stopping,
  });
  // As Engine.stop does: stopping, and the engine's signal aborts every wait.
  const stop = () => {
    stopping = true;
    abort.abort(new Error('engine stopped'));
  };
  return { clock, conditions, reconciler, calls: () => calls, stop };
}

describe('ReconnectReconciler', () => {
  it('retries a failed reconciliation with backoff, degraded with the reason meanwhile, and lifts it on success', async () => {
    const { clock, conditions, reconciler, calls } = setup(2);
    const run = reconciler.run();
    await clock.advance(0);
    expect(calls()).toBe(1);
    expect(conditions.state.mode).toBe('degraded');
    expect(conditions.state.reasons).toEqual(["the engine's reconciliation after a reconnect failed (read 1 failed)"]);
    await clock.advance(30_000);
    await clock.advance(30_000);
    await run;
    expect(calls()).toBe(3);
    expect(conditions.state.mode).toBe('trading');
  });

  it("lets a newer reconnect's run take over: the older run's retries stand down", async () => {
    const { clock, reconciler, calls } = setup(1);
    const older = reconciler.run();
    await clock.advance(0);
    const newer = reconciler.run();
    await newer;
    expect(calls()).toBe(2);
    await clock.advance(60_000);
    await older;
    expect(calls()).toBe(2);
  });

  it('stops retrying once the engine stops', async () => {
    const { clock, reconciler, calls, stop } = setup(5);
    const run = reconciler.run();
    await clock.advance(0);
    stop();
    await clock.advance(60_000);
    await run;
    expect(calls()).toBe(1);
  });
});
