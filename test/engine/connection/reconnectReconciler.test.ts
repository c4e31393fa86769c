import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { TradingConditions } from '../../../src/engine/admission/tradingConditions.js';
import { ReconnectReconciler, type ReconnectPart } from '../../../src/engine/connection/reconnectReconciler.js';
import { SnapshotReconnectPart } from '../../../src/engine/connection/snapshotReconnectPart.js';
import type { VenueSnapshot } from '../../../src/venue/state/venueSnapshot.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** A reconciler over a manual clock, and `stop` as Engine.stop does it: the engine's signal aborts every wait. */
function reconcilerSetup() {
  const clock = new ManualClock(0);
  const conditions = new TradingConditions(clock);
  const abort = new AbortController();
  const reads: (readonly number[])[] = [];
  const readVenue = (markets: readonly number[]): Promise<VenueSnapshot> => {
    reads.push(markets);
    return Promise.resolve({ markets, openOrders: [], positions: new Map(), balance: `${reads.length}` });
  };
  const reconciler = new ReconnectReconciler({ conditions, clock, signal: abort.signal, readVenue });
  const stop = () => abort.abort(new Error('engine stopped'));
  // The feeds drop and come back: every registered reconciler is due.
  const reconnect = () => {
    conditions.feedDown('reconnecting');
    conditions.feedUp();
  };
  return { clock, conditions, reconciler, stop, reconnect, reads };
}

/** The engine's snapshot part, whose REST read fails `failures` times. */
function setup(failures: number) {
  const s = reconcilerSetup();
  let calls = 0;
  s.reconciler.add(
    new SnapshotReconnectPart({
      conditions: s.conditions,
      reconcile: async () => {
        calls++;
        if (calls <= failures) throw new Error(`read ${calls} failed`);
      },
      markets: () => [1],
      log: quiet,
    }),
  );
  s.reconnect();
  return { ...s, calls: () => calls };
}

/** A part that records what it is asked into `events` and fails its first `failures` attempts. */
function recordingPart(name: string, failures: number, events: string[], over: Partial<ReconnectPart> = {}) {
  const lines: string[] = [];
  const part: ReconnectPart = {
    name,
    label: `${name} reconciliation`,
    retry: { attempts: 3, baseMs: 1_000, maxMs: 1_000 },
    log: {
      ...quiet,
      warn: (_o: object, msg?: string) => void lines.push(msg ?? ''),
      error: (_o: object, msg?: string) => void lines.push(msg ?? ''),
    },
    reconnected: (lostAtMs) => void events.push(`${name} window from ${lostAtMs}`),
    attempt: (attempt) => {
      events.push(`${name} attempt ${attempt}`);
      return attempt <= failures ? Promise.reject(new Error(`${name} ${attempt} failed`)) : Promise.resolve();
    },
    ...over,
  };
  return { part, lines };
}

describe('ReconnectReconciler with the engine snapshot part', () => {
  it('retries a failed reconciliation with backoff, degraded with the reason meanwhile, and lifts it on success', async () => {
    const { clock, conditions, reconciler, calls } = setup(2);
    const run = reconciler.reconnected(0);
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
    const older = reconciler.reconnected(0);
    await clock.advance(0);
    const newer = reconciler.reconnected(0);
    await newer;
    expect(calls()).toBe(2);
    await clock.advance(60_000);
    await older;
    expect(calls()).toBe(2);
  });

  it('stops retrying once the engine stops', async () => {
    const { clock, reconciler, calls, stop } = setup(5);
    const run = reconciler.reconnected(0);
    await clock.advance(0);
    stop();
    await clock.advance(60_000);
    await run;
    expect(calls()).toBe(1);
  });

  it('starts the read at once, within the reconnect (no settle pause)', () => {
    const { reconciler, conditions, reads } = setup(0);
    void reconciler.reconnected(0);
    expect(reads).toEqual([[1]]);
    expect(conditions.state.reconciling).toBe(true);
  });
});

describe('ReconnectReconciler', () => {
  it('starts the parts in the order added, each after its own settle pause, with the window of the reconnect', async () => {
    const { clock, conditions, reconciler, reconnect } = reconcilerSetup();
    const events: string[] = [];
    reconciler.add(recordingPart('engine', 0, events).part);
    reconciler.add(recordingPart('journal', 0, events, { settleMs: 100 }).part);
    reconnect();
    const run = reconciler.reconnected(1_500);
    expect(events).toEqual(['engine window from 1500', 'engine attempt 1', 'journal window from 1500']);
    // Settling counts as running: intents wait rather than being refused.
    expect(conditions.state.reasons).toContain('journal reconciliation after the reconnect not done yet');
    expect(conditions.state.reconciling).toBe(true);
    await clock.advance(99);
    expect(events).toHaveLength(3);
    await clock.advance(1);
    await run;
    expect(events.at(-1)).toBe('journal attempt 1');
  });

  it('retries a part by its own policy and, out of attempts, says the next reconnect tries again', async () => {
    const { clock, reconciler, reconnect } = reconcilerSetup();
    const events: string[] = [];
    const { part, lines } = recordingPart('journal', 5, events);
    reconciler.add(part);
    reconnect();
    const run = reconciler.reconnected(0);
    await clock.advance(1_000);
    await clock.advance(1_000);
    await run;
    expect(events.filter((e) => e.includes('attempt'))).toHaveLength(3);
    expect(lines.map((l) => l.replace(/in \d+ ms/, 'in N ms'))).toEqual([
      'journal reconciliation: retrying in N ms (attempt 2 of 3)',
      'journal reconciliation: retrying in N ms (attempt 3 of 3)',
      'trading stays paused: journal reconciliation failed 3 times: the bot retries at the next reconnect',
    ]);
  });

  it("aborts an older reconnect's settle pause and retries when a newer one comes, quietly", async () => {
    const { clock, reconciler, reconnect } = reconcilerSetup();
    const events: string[] = [];
    const { part, lines } = recordingPart('journal', 1, events, { settleMs: 100 });
    reconciler.add(part);
    reconnect();
    const older = reconciler.reconnected(1_000);
    await clock.advance(50);
    const newer = reconciler.reconnected(2_000);
    await older;
    await clock.advance(100);
    await clock.advance(1_000);
    await newer;
    expect(events).toEqual([
      'journal window from 1000',
      'journal window from 2000',
      'journal attempt 1',
      'journal attempt 2',
    ]);
    expect(lines.filter((l) => l.includes('failed'))).toEqual([]);
  });

  it('runs a removed part no more: its retries are aborted and the next reconnect leaves it out', async () => {
    const { clock, reconciler, reconnect } = reconcilerSetup();
    const events: string[] = [];
    const remove = reconciler.add(recordingPart('journal', 5, events).part);
    reconnect();
    const run = reconciler.reconnected(0);
    remove();
    await clock.advance(60_000);
    await run;
    await reconciler.reconnected(0);
    expect(events).toEqual(['journal window from 0', 'journal attempt 1']);
  });
});

describe('one read of the venue per reconnect', () => {
  it('the engine part and another part compare the same read, of both their markets', async () => {
    const { clock, reconciler, reads, reconnect } = reconcilerSetup();
    const seen: string[] = [];
    reconciler.add(
      new SnapshotReconnectPart({
        conditions: new TradingConditions(clock),
        reconcile: (snapshot) => Promise.resolve(void seen.push(`engine read ${snapshot.balance}`)),
        markets: () => [1, 2],
        log: quiet,
      }),
    );
    const journal = recordingPart('journal', 0, [], {
      markets: () => [2, 3],
      attempt: async (_attempt, _round, venue) => void seen.push(`journal read ${(await venue.snapshot()).balance}`),
    });
    reconciler.add(journal.part);
    reconnect();
    await Promise.all([reconciler.reconnected(0), clock.advance(0)]);
    expect(reads).toEqual([[1, 2, 3]]);
    expect(seen.sort()).toEqual(['engine read 1', 'journal read 1']);
    // The next reconnect reads again, once.
    await Promise.all([reconciler.reconnected(10), clock.advance(0)]);
    expect(reads).toHaveLength(2);
  });

  it('a retry that asks for a fresh read gets one; a failed read is read again', async () => {
    const { clock, conditions, reconnect } = reconcilerSetup();
    let n = 0;
    const reconciler = new ReconnectReconciler({
      conditions,
      clock,
      signal: new AbortController().signal,
      readVenue: (markets) =>
        ++n === 1
          ? Promise.reject(new Error('read 1 failed'))
          : Promise.resolve({ markets, openOrders: [], positions: new Map(), balance: `${n}` }),
    });
    const balances: string[] = [];
    const part = recordingPart('journal', 0, [], {
      attempt: async (attempt, _round, venue) => {
        balances.push((await venue.snapshot({ fresh: attempt > 2 })).balance);
        if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
      },
    });
    reconciler.add(part.part);
    reconnect();
    const run = reconciler.reconnected(0);
    await clock.advance(0);
    await clock.advance(1_000);
    await clock.advance(1_000);
    await run;
    // Attempt 1's read failed (attempt 1 threw it); attempt 2 read again; attempt 3 asked for a fresh one.
    expect(balances).toEqual(['2', '3']);
  });
});
