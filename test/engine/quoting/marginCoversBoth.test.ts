import { describe, expect, it } from 'vitest';
import { marginCoversBoth, type MarginInputs } from '../../../src/engine/quoting/marginCoversBoth.js';
import type { TrackedOrder } from '../../../src/engine/orders/trackedOrder.js';

const order = (size: string, price: string, market = false): TrackedOrder => ({
  intentId: `o-${size}-${price}`,
  strategy: 's',
  marketId: 1,
  side: 'buy',
  size,
  price,
  state: 'open',
  filledSize: '0',
  ...(market ? { market: true } : {}),
});

const inputs = (over: Partial<MarginInputs> = {}): MarginInputs => ({
  balance: '1000',
  orders: [order('0.001', '60000')],
  positions: [{ marketId: 1, side: 'buy', size: '0.002', avgEntryPrice: '59000' }],
  markOf: () => '60000',
  ...over,
});

describe('marginCoversBoth', () => {
  it('says yes while the balance covers every order, position and the new order at full notional', () => {
    // 60 (order) + 120 (position at the mark) + 60 (new) = 240 <= 1000
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, inputs())).toBe(true);
  });

  it('says no, to the last cent, once it does not', () => {
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, inputs({ balance: '239.99' }))).toBe(false);
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, inputs({ balance: '240' }))).toBe(true);
  });

  it('values a position at its entry when no mark is known, and says no when neither is', () => {
    const noMark = inputs({ markOf: () => undefined, balance: '238' });
    // 60 + 118 (0.002 at 59000) + 60 = 238
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, noMark)).toBe(true);
    const blind = inputs({ markOf: () => undefined, positions: [{ marketId: 1, side: 'sell', size: '1' }] });
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, blind)).toBe(false);
  });

  it('says no without a balance or with a value that is not a decimal, and skips market orders (no price)', () => {
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, inputs({ balance: undefined }))).toBe(false);
    expect(marginCoversBoth({ size: 'lots', price: '60000' }, inputs())).toBe(false);
    const withMarket = inputs({ orders: [order('5', '0', true)], positions: [], balance: '60' });
    expect(marginCoversBoth({ size: '0.001', price: '60000' }, withMarket)).toBe(true);
  });
});
