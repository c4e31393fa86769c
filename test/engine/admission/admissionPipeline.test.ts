import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { AdmissionGate, type Admission } from '../../../src/engine/admission/admissionGate.js';
import { AdmissionPipeline, LONG_WAIT_MS } from '../../../src/engine/admission/admissionPipeline.js';
import { InFlightActions } from '../../../src/engine/admission/inFlightActions.js';
import { StrategyBudgets } from '../../../src/engine/admission/strategyBudgets.js';
import { DEFAULT_ENGINE_CONFIG, type GuardConfig } from '../../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import type { AccountState } from '../../../src/engine/tracking/accountState.js';
import { SessionLedger } from '../../../src/engine/ledger/sessionLedger.js';

const limits = (actionsPerSecond: number): GuardConfig => ({
  ...DEFAULT_ENGINE_CONFIG.guards,
  maxOpenOrders: 100,
  actionsPerSecond,
  actionBurst: 1,
  maxOrderNotional: '1000000',
  maxPositionNotional: '1000000',
});
const EMPTY: AccountState = { positions: new Map(), marginModes: new Map(), openOrders: new Map() };
const bid = (intentId: string) =>
  placeLimit({ intentId, strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' });
const ruleOf = (a: Admission | undefined): string => (a === undefined ? 'wait' : 'rule' in a ? a.rule : 'admitted');

/** The budget of strategy `s` (one action a second) before an account gate (`accountRate` a second). */
function pipeline(accountRate: number) {
  const clock = new ManualClock();
  const inFlight = new InFlightActions(clock);
  const warned: { obj: Record<string, unknown>; msg: string | undefined }[] = [];
  const account = new AdmissionGate({
    name: 'account',
    config: limits(accountRate),
    clock,
    maxWaitMs: 30_000,
    inFlight,
    accountState: () => EMPTY,
    onKillSwitchTripped: () => {},
  });
  account.setMark(1, '100');
  const p = new AdmissionPipeline({
    account,
    clock,
    log: { warn: (obj: object, msg?: string) => void warned.push({ obj: obj as Record<string, unknown>, msg }) },
    signal: new AbortController().signal,
  });
  p.useBudgets(
    new StrategyBudgets(
      { limits: new Map([['s', limits(1)]]) },
      {
        clock,
        log: { error() {} },
        maxWaitMs: 30_000,
        inFlight,
        ordersOnVenue: () => new Map(),
        markOf: () => '100',
        bookOf: (strategy) => new SessionLedger(() => '100').bookOf(strategy),
        cancelOrdersOf: async () => undefined,
      },
    ),
  );
  return { p, clock, inFlight, warned };
}

describe('AdmissionPipeline: the strategy budget, then the account', () => {
  it('answers at once when nothing waits; intents over the budget rate wait and are admitted in turn, and a wait past a second is logged', async () => {
    const { p, clock, inFlight, warned } = pipeline(100);
    expect(ruleOf(p.admitNow(bid('a'), EMPTY))).toBe('admitted');
    expect(ruleOf(p.admitNow(bid('b'), EMPTY))).toBe('wait');
    const second = p.admit(bid('b'));
    const third = p.admit(bid('c'));
    expect(p.waitingByStrategy()).toEqual(new Map([['s', 2]]));
    await clock.advance(1_000);
    expect(ruleOf(await second)).toBe('admitted');
    expect(inFlight.has('c')).toBe(false);
    await clock.advance(1_000);
    expect(ruleOf(await third)).toBe('admitted');
    expect(inFlight.has('b') && inFlight.has('c')).toBe(true);
    // A wait of one second is the rate limit doing its job; the one of two seconds is logged.
    expect(warned).toEqual([
      {
        obj: expect.objectContaining({ intentId: 'c', strategy: 's', waitedMs: expect.any(Number) }),
        msg: 'intent waited for admission (the strategy budget or the account rate limit)',
      },
    ]);
    expect(warned[0]!.obj['waitedMs']).toBeGreaterThan(LONG_WAIT_MS);
  });

  it('withdraws an intent waiting at the budget or at the account: refused cancelled_queued, nothing held in flight', async () => {
    // At the budget: the strategy's second action in the same second.
    const atBudget = pipeline(100);
    expect(ruleOf(atBudget.p.admitNow(bid('a'), EMPTY))).toBe('admitted');
    const waiting = atBudget.p.admit(bid('b'));
    expect(atBudget.p.withdraw('b')).toBe(true);
    expect(ruleOf(await waiting)).toBe('cancelled_queued');
    expect(atBudget.inFlight.has('b')).toBe(false);
    expect(atBudget.p.withdraw('b')).toBe(false);

    // At the account: the budget admits (its bucket is full again), the account's bucket is empty.
    const atAccount = pipeline(1);
    expect(ruleOf(atAccount.p.admitNow(bid('a'), EMPTY))).toBe('admitted');
    await atAccount.clock.advance(1_000);
    const account = new Promise<Admission>((resolve) => {
      // The account's bucket is spent by an intent of another, unbudgeted strategy.
      expect(ruleOf(atAccount.p.admitNow({ ...bid('x'), strategy: 'other' }, EMPTY))).toBe('admitted');
      resolve(atAccount.p.admit(bid('c')));
    });
    await Promise.resolve();
    expect(atAccount.p.withdraw('c')).toBe(true);
    expect(ruleOf(await account)).toBe('cancelled_queued');
    expect(atAccount.inFlight.has('c')).toBe(false);
  });
});
