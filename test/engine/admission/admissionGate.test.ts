import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { decimalToWei } from '../../../src/core/decimal.js';
import type { AccountState } from '../../../src/engine/tracking/accountState.js';
import { AdmissionGate, type AdmissionScope } from '../../../src/engine/admission/admissionGate.js';
import { InFlightActions, type InFlightTicket } from '../../../src/engine/admission/inFlightActions.js';
import { TradingConditions } from '../../../src/engine/admission/tradingConditions.js';
import { DEFAULT_ENGINE_CONFIG, type GuardConfig } from '../../../src/engine/config/engineConfig.js';
import { cancel, placeLimit, setLeverage } from '../../../src/engine/intents/intentBuilders.js';
import type { Refusal } from '../../../src/engine/intents/refusal.js';

const config: GuardConfig = {
  ...DEFAULT_ENGINE_CONFIG.guards,
  maxOpenOrders: 2,
  actionsPerSecond: 1,
  actionBurst: 1,
  maxOrderNotional: '1000000',
  maxPositionNotional: '1000000',
};
/** A PnL as the kill switch reads it, from USDC decimals. */
const pnl = (realised: string, unrealised: string) => ({
  realisedWei: decimalToWei(realised, 'realised'),
  unrealisedWei: decimalToWei(unrealised, 'unrealised'),
});
const bid = (intentId: string) =>
  placeLimit({ intentId, strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });

function account(openOrders: number): AccountState {
  return { positions: new Map(), marginModes: new Map(), openOrders: new Map([[1, openOrders]]) };
}

const admittedTicket = { settled: expect.any(Function) };

/** The ticket of an admitted intent (fails the test on a refusal). */
function ticketOf(answer: Refusal | InFlightTicket): InFlightTicket {
  if ('rule' in answer) throw new Error(`refused: ${answer.rule}`);
  return answer;
}

type ScopeOverrides = Partial<AdmissionScope> & { readonly clock: ManualClock };

function accountGate(over: ScopeOverrides): AdmissionGate {
  const g = new AdmissionGate({
    name: 'account',
    config,
    maxWaitMs: 10_000,
    inFlight: new InFlightActions(over.clock),
    accountState: () => account(0),
    closePosition: async () => true,
    onKillSwitchTripped: () => {},
    ...over,
  });
  g.setMark(1, '100');
  return g;
}

function gate(clock: ManualClock, read: () => AccountState): AdmissionGate {
  return accountGate({ clock, accountState: read });
}

describe('AdmissionGate.admit with the account state the caller just read', () => {
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

describe('AdmissionGate.watchPnl', () => {
  const lossConfig: GuardConfig = { ...config, killSwitchMaxLoss: '100', killSwitchLossConfirmMs: 500 };
  const watcher = (clock: ManualClock, trips: string[]) =>
    accountGate({ config: lossConfig, clock, onKillSwitchTripped: (r) => trips.push(r) });

  it('ignores a loss that is gone before the confirmation time (two frames of one transaction)', async () => {
    const clock = new ManualClock();
    const trips: string[] = [];
    const g = watcher(clock, trips);
    g.watchPnl(pnl('-150', '0'));
    await clock.advance(10);
    g.watchPnl(pnl('0', '0'));
    await clock.advance(1_000);
    expect(g.killSwitch.tripped).toBe(false);
    expect(trips).toEqual([]);
  });

  it('trips once on a loss still there after the confirmation time, with the latest figure', async () => {
    const clock = new ManualClock();
    const trips: string[] = [];
    const g = watcher(clock, trips);
    g.watchPnl(pnl('-120', '0'));
    await clock.advance(499);
    expect(g.killSwitch.tripped).toBe(false);
    g.watchPnl(pnl('-130', '-5'));
    await clock.advance(1);
    expect(g.killSwitch).toMatchObject({ tripped: true, reason: 'loss limit reached: PnL -135 <= -100' });
    g.watchPnl(pnl('-140', '0'));
    await clock.advance(1_000);
    expect(trips).toHaveLength(1);
  });

  it('trips at once with a confirmation time of 0, and a dispose drops a pending confirmation', async () => {
    const clock = new ManualClock();
    const trips: string[] = [];
    const immediate = accountGate({
      config: { ...lossConfig, killSwitchLossConfirmMs: 0 },
      clock,
      maxWaitMs: 1,
      onKillSwitchTripped: (r) => trips.push(r),
    });
    immediate.watchPnl(pnl('-100', '0'));
    expect(immediate.killSwitch.tripped).toBe(true);
    const disposed = watcher(clock, trips);
    disposed.watchPnl(pnl('-200', '0'));
    disposed.dispose();
    await clock.advance(1_000);
    expect(disposed.killSwitch.tripped).toBe(false);
    expect(clock.pendingSleeps).toBe(0);
  });
});

describe('AdmissionGate admissions', () => {
  it('counts intents admitted together as in flight until they settle, so a burst cannot pass max open orders', async () => {
    const g = accountGate({ config: { ...config, actionsPerSecond: 100, actionBurst: 100 }, clock: new ManualClock() });
    const burst = await Promise.all([bid('a'), bid('b'), bid('c')].map((i) => g.admit(i, undefined, account(0))));
    expect(burst.map((answer) => ('rule' in answer ? answer.rule : 'admitted'))).toEqual([
      'admitted',
      'admitted',
      'max_open_orders',
    ]);
    const [a, b] = burst.slice(0, 2).map((answer) => ticketOf(answer));
    expect(await g.admit(bid('d'), undefined, account(0))).toMatchObject({ rule: 'max_open_orders', value: '2' });
    a?.settled();
    b?.settled();
    expect(await g.admit(bid('e'), undefined, account(1))).toMatchObject(admittedTicket);
  });

  it('admits leverage updates one at a time, each the interval after the previous one settled (its answer), not after its admission', async () => {
    const clock = new ManualClock();
    const g = accountGate({ config: { ...config, actionsPerSecond: 100, actionBurst: 100 }, clock });
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

describe('AdmissionGate: one gate for every scope, failing closed', () => {
  const roomy: GuardConfig = { ...config, actionsPerSecond: 100, actionBurst: 100 };

  it('refuses an intent whose check throws, naming the scope and the error, and holds nothing in flight', async () => {
    const clock = new ManualClock();
    const inFlight = new InFlightActions(clock);
    const g = accountGate({
      clock,
      inFlight,
      config: roomy,
      judge: () => {
        throw new Error('not a decimal: "abc"');
      },
    });
    const answer = await g.admit(bid('a'));
    expect(answer).toMatchObject({ rule: 'guard_error', value: 'placeLimit' });
    expect((answer as Refusal).reason).toMatch(/the account admission check threw \(not a decimal: "abc"\)/);
    expect(inFlight.size).toBe(0);
  });

  it('refuses when reading the scope state throws', async () => {
    const clock = new ManualClock();
    const g = accountGate({
      clock,
      config: roomy,
      accountState: () => {
        throw new Error('ledger broken');
      },
    });
    expect(await g.admit(bid('a'))).toMatchObject({ rule: 'guard_error' });
  });

  it('judges the trading conditions first: degraded refuses an opening order with FEED_DOWN and lets a cancel and a reduce-only order through', async () => {
    const clock = new ManualClock();
    const conditions = new TradingConditions(clock);
    const g = accountGate({
      clock,
      config: roomy,
      conditions: { verdict: (i) => conditions.verdict(i, DEFAULT_ENGINE_CONFIG.degraded) },
    });
    conditions.feedDown('reconnecting: socket closed');
    const refused = await g.admit(bid('a'));
    expect(refused).toMatchObject({ rule: 'feed_down' });
    expect((refused as Refusal).reason).toBe(
      'trading paused (FEED_DOWN): private feeds down (reconnecting: socket closed)',
    );
    ticketOf(
      await g.admit(cancel({ intentId: 'c', strategy: 's', marketId: 1, target: { orderId: '0x01' } })),
    ).settled();
    ticketOf(
      await g.admit(
        placeLimit({
          intentId: 'r',
          strategy: 's',
          marketId: 1,
          side: 'sell',
          size: '1',
          price: '100',
          reduceOnly: true,
        }),
      ),
    ).settled();
    conditions.feedUp();
    expect(await g.admit(bid('b'))).toMatchObject(admittedTicket);
  });

  it('makes intents wait while a reconciliation runs and admits them once it succeeded', async () => {
    const clock = new ManualClock();
    const conditions = new TradingConditions(clock);
    conditions.registerReconciler('journal');
    const g = accountGate({
      clock,
      config: roomy,
      conditions: { verdict: (i) => conditions.verdict(i, DEFAULT_ENGINE_CONFIG.degraded) },
    });
    conditions.reconcileStarted('journal');
    let answer: Refusal | InFlightTicket | undefined;
    void g.admit(bid('a')).then((a) => (answer = a));
    await clock.advance(500);
    expect(answer).toBeUndefined();
    conditions.reconcileSucceeded('journal');
    await clock.advance(100);
    expect(answer).toMatchObject(admittedTicket);
  });

  it('enqueue judges intents in arrival order: a later intent never overtakes one waiting on the rate, and close refuses the rest', async () => {
    const clock = new ManualClock();
    const g = accountGate({ clock, config: { ...roomy, maxOpenOrders: 100, actionsPerSecond: 1, actionBurst: 1 } });
    const answers: string[] = [];
    const record = (id: string) => (answer: Refusal | InFlightTicket) =>
      answers.push(`${id}:${'rule' in answer ? answer.rule : 'admitted'}`);
    g.enqueue(bid('a'), record('a'));
    // Decided at once when nothing waits ahead.
    expect(answers).toEqual(['a:admitted']);
    g.enqueue(bid('b'), record('b'));
    g.enqueue(cancel({ intentId: 'c', strategy: 's', marketId: 1, target: { orderId: '0x01' } }), record('c'));
    g.enqueue(bid('d'), record('d'));
    await clock.advance(1_000);
    expect(answers).toEqual(['a:admitted', 'b:admitted']);
    await clock.advance(1_000);
    expect(answers).toEqual(['a:admitted', 'b:admitted', 'c:admitted']);
    g.close((intent) => ({ rule: 'engine_stopped', value: intent.kind, reason: 'stopping', hints: [] }));
    expect(answers).toEqual(['a:admitted', 'b:admitted', 'c:admitted', 'd:engine_stopped']);
  });

  it("shares one in-flight count between scopes: a strategy's hold counts for the account, but never against the intent itself", async () => {
    const clock = new ManualClock();
    const inFlight = new InFlightActions(clock);
    const strategy = accountGate({
      name: 'strategy s',
      clock,
      inFlight,
      config: roomy,
      inFlightFilter: { strategy: 's', placementsOnly: true },
    });
    const account2 = accountGate({ clock, inFlight, config: roomy });
    ticketOf(await strategy.admit(bid('a')));
    ticketOf(await strategy.admit(bid('b')));
    // 'b' is judged by the account with 'a' in flight: 1 + 0 open < 2.
    expect(await account2.admit(bid('b'))).toMatchObject(admittedTicket);
    expect(await account2.admit(bid('c'))).toMatchObject({ rule: 'max_open_orders', value: '2' });
    inFlight.release('a');
    expect(await account2.admit(bid('c'))).toMatchObject(admittedTicket);
  });
});

describe('AdmissionGate queue faults', () => {
  /** A clock whose timers break: the queue's wait fails with something other than its own abort. */
  class BrokenTimerClock extends ManualClock {
    override sleep(): Promise<void> {
      return Promise.reject(new Error('timer broke'));
    }
  }

  it('refuses what waits with guard_error when the queue fails on a fault of its own (fails closed)', async () => {
    const clock = new BrokenTimerClock();
    const g = accountGate({ clock, config: { ...config, maxOpenOrders: 100 } });
    const answers: string[] = [];
    const record = (id: string) => (answer: Refusal | InFlightTicket) =>
      answers.push(`${id}:${'rule' in answer ? `${answer.rule} ${answer.reason}` : 'admitted'}`);
    g.enqueue(bid('a'), record('a'));
    g.enqueue(bid('b'), record('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers[0]).toBe('a:admitted');
    expect(answers[1]).toMatch(/^b:guard_error the account admission queue failed \(timer broke\)/);
    expect(answers).toHaveLength(2);
  });
});

describe('AdmissionGate tells of each admission', () => {
  it('names each admitted action with the time its rate limit counted it: one waiting for a token, at the token', async () => {
    const clock = new ManualClock(1_000);
    const admitted: { intentId: string; atMs: number }[] = [];
    const g = accountGate({ clock, onAdmitted: (a) => admitted.push({ ...a }) });
    expect(await g.admit(bid('a'), undefined, account(0))).toMatchObject(admittedTicket);
    // One action a second, burst 1: 'b' and the cancel wait for their tokens, refused ones are not told.
    const b = g.admit(bid('b'), undefined, account(0));
    const c = g.admit(cancel({ intentId: 'c', strategy: 's', marketId: 1, target: { orderId: '0x01' } }));
    expect(await g.admit(bid('d'), undefined, account(2))).toMatchObject({ rule: 'max_open_orders' });
    expect(admitted).toEqual([{ intentId: 'a', atMs: 1_000 }]);
    await clock.advance(2_000);
    await Promise.all([b, c]);
    expect(admitted).toEqual([
      { intentId: 'a', atMs: 1_000 },
      { intentId: 'b', atMs: 2_000 },
      { intentId: 'c', atMs: 3_000 },
    ]);
  });
});
