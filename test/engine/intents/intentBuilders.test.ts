import { describe, expect, it } from 'vitest';
import {
  cancel,
  closePosition,
  placeLimit,
  placeMarket,
  setMarginMode,
} from '../../../src/engine/intents/intentBuilders.js';
import { isPlaceIntent, isRiskReducing, oppositeSide } from '../../../src/engine/intents/intents.js';

const base = { intentId: 'i-1', strategy: 's', marketId: 1 } as const;

describe('intent builders', () => {
  it('fill safe defaults and keep what the strategy said', () => {
    expect(placeLimit({ ...base, side: 'buy', size: '1', price: '2' })).toEqual({
      ...base,
      kind: 'placeLimit',
      side: 'buy',
      size: '1',
      price: '2',
      timeInForce: 'GTC',
      postOnly: false,
      reduceOnly: false,
    });
    expect(
      placeLimit({ ...base, side: 'sell', size: '1', price: '2', postOnly: true, timeInForce: 'GTT', ttlUnits: 9 }),
    ).toMatchObject({
      postOnly: true,
      timeInForce: 'GTT',
      ttlUnits: 9,
    });
    expect(placeMarket({ ...base, side: 'sell', size: '1' })).toMatchObject({
      kind: 'placeMarket',
      timeInForce: 'IOC',
      reduceOnly: false,
    });
    expect(setMarginMode({ ...base, marginMode: 'isolated' }).policy).toBe('refuse');
  });

  it('cannot be talked into another kind', () => {
    const sneaky = { ...base, side: 'buy', size: '1', price: '2', kind: 'cancel' } as unknown as Parameters<
      typeof placeLimit
    >[0];
    expect(placeLimit(sneaky).kind).toBe('placeLimit');
  });

  it('classify intents for the kill switch and the order guards', () => {
    expect(isRiskReducing(cancel({ ...base, target: { orderId: '0x1' } }))).toBe(true);
    expect(isRiskReducing(closePosition(base))).toBe(true);
    expect(isRiskReducing(placeMarket({ ...base, side: 'sell', size: '1', reduceOnly: true }))).toBe(false);
    expect(isPlaceIntent(placeMarket({ ...base, side: 'sell', size: '1' }))).toBe(true);
    expect(isPlaceIntent(closePosition(base))).toBe(false);
    expect(oppositeSide('buy')).toBe('sell');
  });
});
