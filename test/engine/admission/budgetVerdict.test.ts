import { describe, expect, it } from 'vitest';
import type { PositionView } from '../../../src/engine/tracking/accountState.js';
import { fullBucket, recordAction } from '../../../src/engine/guards/actionRateLimit.js';
import type { GuardState, GuardVerdict } from '../../../src/engine/guards/guardState.js';
import { ARMED_KILL_SWITCH, tripKillSwitch } from '../../../src/engine/guards/killSwitch.js';
import { cancelAll, closePosition, placeLimit, placeMarket } from '../../../src/engine/intents/intentBuilders.js';
import { budgetVerdict } from '../../../src/engine/admission/budgetVerdict.js';
import { budgetGuardConfig } from '../../../src/engine/guards/riskLimits.js';

const NOW = 1_700_000_000_000;
const budget = {
  max_order_notional: '100',
  max_position_per_market: '150',
  max_open_orders: 2,
  max_actions_per_second: 2,
  kill_switch: { max_loss: '50' },
};
const config = budgetGuardConfig(budget);
const limit = (
  size: string,
  price: string,
  over: { side?: 'buy' | 'sell'; reduceOnly?: boolean; timeInForce?: 'IOC' } = {},
) =>
  placeLimit({
    intentId: 'i',
    strategy: 's',
    marketId: 1,
    side: over.side ?? 'buy',
    size,
    price,
    ...(over.reduceOnly === undefined ? {} : { reduceOnly: over.reduceOnly }),
    ...(over.timeInForce === undefined ? {} : { timeInForce: over.timeInForce }),
  });
const market = (size: string) => placeMarket({ intentId: 'm', strategy: 's', marketId: 1, side: 'sell', size });
const long = (size: string): [number, PositionView][] => [[1, { side: 'buy', size }]];
const emptyBucket = recordAction(recordAction(fullBucket(config, NOW), NOW, config), NOW, config);

/** The strategy's share of the state: its own orders, fills (positions), bucket and kill switch. */
function state(
  over: {
    positions?: [number, PositionView][];
    openOrders?: [number, number][];
    inFlight?: [number, number][];
    mark?: string | null;
  } & Partial<Pick<GuardState, 'actionBucket' | 'killSwitch'>> = {},
): GuardState {
  return {
    positions: new Map(over.positions ?? []),
    marginModes: new Map(),
    openOrders: new Map(over.openOrders ?? []),
    inFlight: new Map(over.inFlight ?? []),
    marks: over.mark === null ? new Map() : new Map([[1, over.mark ?? '65000']]),
    nowMs: NOW,
    actionBucket: over.actionBucket ?? fullBucket(config, NOW),
    lastLeverageUpdateMs: undefined,
    killSwitch: over.killSwitch ?? ARMED_KILL_SWITCH,
  };
}

const verdictOf = (v: GuardVerdict) => (v.kind === 'refuse' ? v.refusal.rule : v.kind);
const tripped = tripKillSwitch(ARMED_KILL_SWITCH, 'loss limit reached', NOW).state;

describe('a strategy budget judged by the engine guards', () => {
  it.each([
    ['within budget', limit('0.001', '65000'), state(), 'allow'],
    // max_order_notional
    ['notional above the strategy budget', limit('0.002', '65000'), state(), 'max_order_notional'],
    ['exactly at the notional budget', limit('0.001', '100000'), state(), 'allow'],
    ['market order valued at the mark', market('0.01'), state(), 'max_order_notional'],
    [
      'market order without a mark: its notional is unknown',
      market('0.001'),
      state({ mark: null }),
      'max_order_notional',
    ],
    // max_position_per_market: the strategy's own net position
    [
      'own position plus the order above the budget',
      limit('0.001', '65000'),
      state({ positions: long('0.002') }),
      'max_position',
    ],
    [
      'an order that shrinks its own position',
      limit('0.001', '65000', { side: 'sell' }),
      state({ positions: long('0.002') }),
      'allow',
    ],
    [
      'reduce-only never grows a position',
      limit('0.001', '65000', { reduceOnly: true }),
      state({ positions: long('0.002') }),
      'allow',
    ],
    ['no position of its own: only this order counts', limit('0.0015', '65000'), state(), 'allow'],
    // max_open_orders: its resting orders and its placements in flight
    ['open orders at the budget', limit('0.001', '65000'), state({ openOrders: [[1, 2]] }), 'max_open_orders'],
    [
      'in-flight placements count, in any of its markets',
      limit('0.001', '65000'),
      state({ openOrders: [[1, 1]], inFlight: [[2, 1]] }),
      'max_open_orders',
    ],
    [
      'an IOC limit never rests',
      limit('0.001', '65000', { timeInForce: 'IOC' }),
      state({ openOrders: [[1, 2]] }),
      'allow',
    ],
    [
      'cancels are never refused for size or count',
      cancelAll({ intentId: 'c', strategy: 's', marketId: 1 }),
      state({ openOrders: [[1, 99]], positions: long('1') }),
      'allow',
    ],
    // kill_switch: only cancels and closes pass once its own loss tripped it
    ['kill switch tripped: a placement', limit('0.001', '65000'), state({ killSwitch: tripped }), 'kill_switch'],
    [
      'kill switch tripped: a cancel',
      cancelAll({ intentId: 'c', strategy: 's', marketId: 1 }),
      state({ killSwitch: tripped }),
      'allow',
    ],
    [
      'kill switch tripped: a close',
      closePosition({ intentId: 'x', strategy: 's', marketId: 1 }),
      state({ killSwitch: tripped }),
      'allow',
    ],
    // max_actions_per_second: every action waits its turn, none is refused
    ['action budget spent: a placement waits', limit('0.001', '65000'), state({ actionBucket: emptyBucket }), 'wait'],
    [
      'action budget spent: a cancel waits too',
      cancelAll({ intentId: 'c', strategy: 's', marketId: 1 }),
      state({ actionBucket: emptyBucket }),
      'wait',
    ],
    ['a refusal wins over a wait', limit('0.002', '65000'), state({ actionBucket: emptyBucket }), 'max_order_notional'],
  ] as const)('%s', (_label, intent, current, expected) => {
    expect(verdictOf(budgetVerdict('s', current, intent, config))).toBe(expected);
  });

  it.each([
    ['max_order_notional', limit('0.002', '65000'), state(), '130', 'risk.max_order_notional'],
    [
      'max_position',
      limit('0.001', '65000'),
      state({ positions: long('0.002') }),
      '195',
      'risk.max_position_per_market',
    ],
    ['max_open_orders', limit('0.001', '65000'), state({ openOrders: [[1, 2]] }), '2', 'risk.max_open_orders'],
    ['kill_switch', limit('0.001', '65000'), state({ killSwitch: tripped }), 'placeLimit', 'risk.kill_switch.max_loss'],
  ] as const)(
    'a %s refusal names the strategy, the value and the config field',
    (rule, intent, current, value, field) => {
      const verdict = budgetVerdict('s', current, intent, config);
      expect(verdict).toMatchObject({ kind: 'refuse', refusal: { rule, value } });
      if (verdict.kind !== 'refuse') return;
      expect(verdict.refusal.reason).toMatch(/^strategy s's budget: /);
      expect(verdict.refusal.hints.join(' ')).toContain(`${field} of strategy s`);
    },
  );

  it('a wait says how long and whose budget', () => {
    const verdict = budgetVerdict('s', state({ actionBucket: emptyBucket }), limit('0.001', '65000'), config);
    expect(verdict).toEqual({
      kind: 'wait',
      reason: "strategy s's budget: more than 2 actions per second (burst 2)",
      retryAfterMs: 500,
    });
  });
});
