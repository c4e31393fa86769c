import { filter, from, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  applyBps,
  bpsOf,
  clampToMinSize,
  divideDecimals,
  isAccepted,
  isCancelled,
  isDryRun,
  isExpired,
  isFailed,
  isFillEvent,
  isFilled,
  isNotDone,
  isPartiallyFilled,
  isPlaced,
  isRefused,
  isTerminalOrderEvent,
  isUnknown,
  maxDecimal,
  meetsMinSize,
  minDecimal,
  roundToStep,
  roundToTick,
  spreadBps,
  subtractDecimals,
  tradableSize,
  type IntentOutcome,
  type MarketView,
  type OrderEvent,
} from '../../src/strategy/index.js';

const market: MarketView = {
  market_id: '1',
  mark_price: '65000',
  config: { step_size: '0.001', step_price: '0.5', min_order_size: '0.002' },
};

describe('exact decimals for strategies', () => {
  it('subtracts exactly and divides to the named places with the named rounding', () => {
    expect(subtractDecimals('0.3', '0.1')).toBe('0.2');
    expect(subtractDecimals('1', '2.5')).toBe('-1.5');
    expect(divideDecimals('1', '3', 4, 'down')).toBe('0.3333');
    expect(divideDecimals('1', '3', 4, 'up')).toBe('0.3334');
    expect(divideDecimals('2', '3', 4, 'nearest')).toBe('0.6667');
    expect(divideDecimals('-1', '3', 2, 'down')).toBe('-0.34');
    expect(divideDecimals('-1', '3', 2, 'up')).toBe('-0.33');
    expect(divideDecimals('0.06', '0.002', 0, 'down')).toBe('30');
    expect(divideDecimals('65000', '1.3', 6, 'nearest')).toBe('50000');
    expect(() => divideDecimals('1', '0', 2, 'down')).toThrow(/non-zero/);
    expect(() => divideDecimals('1', '3', -1, 'down')).toThrow(/places/);
    expect(minDecimal('1.10', '1.09')).toBe('1.09');
    expect(maxDecimal('-1', '-2')).toBe('-1');
  });

  it('rounds to the tick and the step as named, and refuses nothing silently', () => {
    expect(roundToTick('100.74', '0.5', 'down')).toBe('100.5');
    expect(roundToTick('100.74', '0.5', 'up')).toBe('101');
    expect(roundToTick('100.74', '0.5', 'nearest')).toBe('100.5');
    expect(roundToTick('100.75', '0.5', 'nearest')).toBe('101');
    expect(roundToStep('0.0037', '0.001', 'down')).toBe('0.003');
    expect(roundToStep('0.0037', '0.001', 'up')).toBe('0.004');
  });

  it("clamps to the market's minimum size, and says when a size cannot be sent", () => {
    expect(clampToMinSize('0.001', market)).toBe('0.002');
    expect(clampToMinSize('0.005', market)).toBe('0.005');
    expect(() => clampToMinSize('-1', market)).toThrow(/size/);
    expect(meetsMinSize('0.0019', market)).toBe(false);
    expect(tradableSize('0.0049', market, 'down')).toBe('0.004');
    expect(tradableSize('0.0019', market, 'down')).toBeUndefined();
    expect(tradableSize('0.0019', market, 'up')).toBe('0.002');
  });

  it('takes and measures basis points exactly', () => {
    expect(applyBps('65000', 10)).toBe('65');
    expect(applyBps('65000', '2.5')).toBe('16.25');
    expect(applyBps('100', -1)).toBe('-0.01');
    expect(bpsOf('65', '65000')).toBe('10');
    expect(bpsOf('1', '3')).toBe('3333.3333');
    expect(spreadBps('99.5', '100.5')).toBe('100');
    expect(() => bpsOf('1', '0')).toThrow(/zero/);
  });
});

describe('narrowing guards', () => {
  const base = { intentId: 'i', strategy: 's', kind: 'placeLimit' as const, marketId: 1, atMs: 0 };
  const outcomes: IntentOutcome[] = [
    { ...base, type: 'accepted', orderId: '0x1' },
    { ...base, type: 'refused', refusal: { rule: 'size', value: '0', reason: 'zero', hints: [] } },
    { ...base, type: 'failed', error: { code: 'VENUE_X', message: 'no', hints: [] } },
    { ...base, type: 'unknown', reason: 'timeout' },
    { ...base, type: 'dry_run', request: { path: '/v1/orders', body: {} } },
  ];

  it('each outcome guard accepts exactly its kind, and narrows to its fields', () => {
    const guards = [isAccepted, isRefused, isFailed, isUnknown, isDryRun];
    expect(guards.map((g) => outcomes.filter(g).map((o) => o.type))).toEqual([
      ['accepted'],
      ['refused'],
      ['failed'],
      ['unknown'],
      ['dry_run'],
    ]);
    expect(outcomes.filter(isNotDone).map((o) => o.type)).toEqual(['refused', 'failed']);
    const refused = outcomes.find(isRefused);
    expect(refused?.refusal.rule).toBe('size');
    // The same guard narrows in an RxJS filter, as the strategy guide uses it.
    const rules: string[] = [];
    from(outcomes)
      .pipe(
        filter(isRefused),
        map((o) => o.refusal.rule),
      )
      .subscribe((rule) => rules.push(rule));
    expect(rules).toEqual(['size']);
    expect(outcomes.find(isAccepted)?.orderId).toBe('0x1');
  });

  it('each order event guard accepts exactly its kind', () => {
    const e = {
      intentId: 'i',
      strategy: 's',
      marketId: 1,
      side: 'buy' as const,
      size: '1',
      filledSize: '0',
      remainingSize: '1',
      atMs: 0,
    };
    const events: OrderEvent[] = [
      { ...e, type: 'placed' },
      { ...e, type: 'partially_filled', lastFillSize: '0.5', filledSize: '0.5', remainingSize: '0.5' },
      { ...e, type: 'filled', lastFillSize: '0.5', filledSize: '1', remainingSize: '0' },
      { ...e, type: 'cancelled', requested: true },
      { ...e, type: 'expired' },
      { ...e, type: 'refused', code: 'size', reason: 'zero', by: 'checks' },
    ];
    const guards = [isPlaced, isPartiallyFilled, isFilled, isCancelled, isExpired, isRefused];
    expect(guards.map((g) => events.filter(g).map((x) => x.type))).toEqual([
      ['placed'],
      ['partially_filled'],
      ['filled'],
      ['cancelled'],
      ['expired'],
      ['refused'],
    ]);
    expect(events.filter(isFillEvent).map((x) => x.lastFillSize)).toEqual(['0.5', '0.5']);
    expect(events.filter(isRefused).map((x) => x.by)).toEqual(['checks']);
    expect(events.filter(isTerminalOrderEvent).map((x) => x.type)).toEqual([
      'filled',
      'cancelled',
      'expired',
      'refused',
    ]);
  });
});
