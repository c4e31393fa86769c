import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { AccountState } from '../../src/engine/accountState.js';
import { DEFAULT_ENGINE_CONFIG, type GuardConfig } from '../../src/engine/engineConfig.js';
import { GuardGate } from '../../src/engine/guardGate.js';
import type { GuardTicket } from '../../src/engine/admittedActions.js';
import { placeLimit, setLeverage } from '../../src/engine/intentBuilders.js';
import type { Rejection } from '../../src/engine/rejection.js';

const config: GuardConfig = { ...DEFAULT_ENGINE_CONFIG.guards, maxOpenOrders: 2, actionsPerSecond: 1, actionBurst: 1, maxOrderNotional: '1000000', maxPositionNotional: '1000000' };
const bid = (intentId: string) => placeLimit({ intentId, strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });

function account(openOrders: number): AccountState {
  return { positions: new Map(), marginModes: new Map(), openOrders: new Map([[1, openOrders]]), inFlight: new Map() };
}

const admittedTicket = { begun: expect.any(Function), settled: expect.any(Function) };

/** The ticket of an admitted intent (fails the test on a refusal). */
function ticketOf(answer: Rejection | GuardTicket): GuardTicket {
  if ('rule' in answer) throw new Error(`refused: ${answer.rule}`);
  return answer;
}

function gate(clock: ManualClock, read: () => AccountState): GuardGate {
  const g = new GuardGate({ config, clock, maxWaitMs: 10_000, accountState: read, closePosition: async () => true, onKillSwitchTripped: () => {} });
  g.setMark(1, '100');
  return g;
}

describe('GuardGate.admit with the account state the caller just read', () => {
  it('judges the first decision on that state without reading the tracker again', async () => {
    let reads = 0;
    const g = gate(new ManualClock(), () => {
      reads++;
      return account(0);
    });
    expect(await g.admit(bid('a'), undefined, account(2))).toMatchObject({ rule: 'max_open_orders' });
    expect(await g.admit(bid('b'), undefined, account(0))).toMatchObject(admittedTicket);
    expect(reads).toBe(0);
  });

  it('reads a fresh state for every decision after a wait', async () => {
    const clock = new ManualClock();
    let open = 0;
    const g = gate(clock, () => account(open));
    expect(await g.admit(bid('a'), undefined, account(0))).toMatchObject(admittedTicket);
    // The bucket is empty: the next intent waits, and meanwhile the account fills up to the limit.
    const second = g.admit(bid('b'), undefined, account(0));
    open = 2;
    await clock.advance(1_000);
    expect(await second).toMatchObject({ rule: 'max_open_orders' });
  });

  it('reads the tracker itself when no state is passed', async () => {
    let reads = 0;
    const g = gate(new ManualClock(), () => {
      reads++;
      return account(2);
    });
    expect(await g.admit(bid('a'))).toMatchObject({ rule: 'max_open_orders' });
    expect(reads).toBe(1);
  });
});

describe('GuardGate.watchPnl', () => {
  const lossConfig: GuardConfig = { ...config, killSwitchMaxLoss: '100', killSwitchLossConfirmMs: 500 };
  const watcher = (clock: ManualClock, trips: string[]) =>
    new GuardGate({ config: lossConfig, clock, maxWaitMs: 10_000, accountState: () => account(0), closePosition: async () => true, onKillSwitchTripped: (r) => trips.push(r) });

  it('ignores a loss that is gone before the confirmation time (two frames of one transaction)', async () => {
    const clock = new ManualClock();
    const trips: string[] = [];
    const g = watcher(clock, trips);
    g.watchPnl({ realized: '-150', unrealized: '0' });
    await clock.advance(10);
    g.watchPnl({ realized: '0', unrealized: '0' });
    await clock.advance(1_000);
    expect(g.killSwitch.tripped).toBe(false);
    expect(trips).toEqual([]);
  });

  it('trips once on a loss still there after the confirmation time, with the latest figure', async () => {
    const clock = new ManualClock();
    const trips: string[] = [];
    const g = watcher(clock, trips);
    g.watchPnl({ realized: '-120', unrealized: '0' });
    await clock.advance(499);
    expect(g.killSwitch.tripped).toBe(false);
    g.watchPnl({ realized: '-130', unrealized: '-5' });
    await clock.advance(1);
    expect(g.killSwitch).toMatchObject({ tripped: true, reason: 'loss limit reached: PnL -135 <= -100' });
    g.watchPnl({ realized: '-140', unrealized: '0' });
    await clock.advance(1_000);
    expect(trips).toHaveLength(1);
  });

  it('trips at once with a confirmation time of 0, and a dispose drops a pending confirmation', async () => {
    const clock = new ManualClock();
    const trips: string[] = [];
    const immediate = new GuardGate({ config: { ...lossConfig, killSwitchLossConfirmMs: 0 }, clock, maxWaitMs: 1, accountState: () => account(0), closePosition: async () => true, onKillSwitchTripped: (r) => trips.push(r) });
    immediate.watchPnl({ realized: '-100', unrealized: '0' });
    expect(immediate.killSwitch.tripped).toBe(true);
    const disposed = watcher(clock, trips);
    disposed.watchPnl({ realized: '-200', unrealized: '0' });
    disposed.dispose();
    await clock.advance(1_000);
    expect(disposed.killSwitch.tripped).toBe(false);
    expect(clock.pendingSleeps).toBe(0);
  });
});

describe('GuardGate admissions', () => {
  it('counts intents admitted together as in flight until the tracker counts them, so a burst cannot pass max open orders', async () => {
    const g = new GuardGate({ config: { ...config, actionsPerSecond: 100, actionBurst: 100 }, clock: new ManualClock(), maxWaitMs: 10_000, accountState: () => account(0), closePosition: async () => true, onKillSwitchTripped: () => {} });
    g.setMark(1, '100');
    const burst = await Promise.all([bid('a'), bid('b'), bid('c')].map((i) => g.admit(i, undefined, account(0))));
    expect(burst.map((answer) => ('rule' in answer ? answer.rule : 'admitted'))).toEqual(['admitted', 'admitted', 'max_open_orders']);
    // Once begun, the tracker's own in-flight count takes over (here: it now reports both).
    const [a, b] = burst.slice(0, 2).map((answer) => ticketOf(answer));
    a?.begun();
    b?.begun();
    expect(await g.admit(bid('d'), undefined, { ...account(0), inFlight: new Map([[1, 2]]) })).toMatchObject({ rule: 'max_open_orders', value: '2' });
    a?.settled();
    b?.settled();
    expect(await g.admit(bid('e'), undefined, account(1))).toMatchObject(admittedTicket);
  });

  it('admits leverage updates one at a time, each the interval after the previous one settled (its answer), not after its admission', async () => {
    const clock = new ManualClock();
    const g = new GuardGate({ config: { ...config, actionsPerSecond: 100, actionBurst: 100 }, clock, maxWaitMs: 10_000, accountState: () => account(0), closePosition: async () => true, onKillSwitchTripped: () => {} });
    const t0 = clock.now();
    const admittedAt: number[] = [];
    const admit = (leverage: number) =>
      g.admit(setLeverage({ intentId: `l-${leverage}`, strategy: 's', marketId: 1, leverage })).then((answer) => {
        admittedAt.push(clock.now() - t0);
        return ticketOf(answer);
      });
    const [first, second, third] = [admit(2), admit(3), admit(4)];
    const firstTicket = await first;
    // The first is answered 700 ms later (a slow send): the second waits a full interval from then.
    await clock.advance(700);
    expect(admittedAt).toEqual([0]);
    firstTicket.begun();
    firstTicket.settled();
    await clock.advance(999);
    expect(admittedAt).toEqual([0]);
    await clock.advance(1);
    expect(admittedAt).toEqual([0, 1700]);
    const secondTicket = await second;
    // Settled twice (say, on two paths): counts once, from the first call.
    await clock.advance(100);
    secondTicket.settled();
    await clock.advance(500);
    secondTicket.settled();
    await clock.advance(500);
    expect(admittedAt).toEqual([0, 1700, 2800]);
    expect(await third).toMatchObject(admittedTicket);
    // Other intents do not wait for a leverage update.
    expect(await g.admit(bid('other'))).toMatchObject(admittedTicket);
  });
});
