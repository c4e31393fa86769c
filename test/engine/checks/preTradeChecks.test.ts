import { describe, expect, it } from 'vitest';
import { EMPTY_ACCOUNT_STATE, type AccountState } from '../../../src/engine/tracking/accountState.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/engine/config/engineConfig.js';
import {
  adjustIsolatedMargin,
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
  setMarginMode,
} from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import type { MarketView } from '../../../src/engine/checks/marketView.js';
import { parseDecimal } from '../../../src/core/decimal.js';
import { preTradeChecks } from '../../../src/engine/checks/preTradeChecks.js';
import type { RefusalRule } from '../../../src/engine/intents/refusal.js';
import { btcMarketView } from './support/btcMarketView.js';

const btc = btcMarketView;
const config = DEFAULT_ENGINE_CONFIG.preTrade;
const base = { intentId: 'i-1', strategy: 'test', marketId: 1 } as const;
const longPosition: AccountState = {
  ...EMPTY_ACCOUNT_STATE,
  positions: new Map([[1, { side: 'buy', size: '0.002' }]]),
};

function refusedBy(
  intent: Intent,
  market: MarketView | undefined = btc,
  account: AccountState = EMPTY_ACCOUNT_STATE,
): RefusalRule {
  const verdict = preTradeChecks(intent, market, account, config);
  if (verdict.ok)
    throw new Error(
      `expected a refusal, got ${JSON.stringify(verdict.action, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`,
    );
  return verdict.refusal.rule;
}

describe('preTradeChecks: limit orders become exact wire orders', () => {
  it('converts size and price to steps and ticks with every flag in place', () => {
    const verdict = preTradeChecks(
      placeLimit({
        ...base,
        side: 'sell',
        size: '0.0025',
        price: '65010.3',
        postOnly: true,
        stpMode: 'expire_both',
        clientOrderId: 42n,
      }),
      btc,
      EMPTY_ACCOUNT_STATE,
      config,
    );
    expect(verdict).toEqual({
      ok: true,
      action: {
        action: 'placeOrder',
        order: {
          market_id: 1,
          size_steps: 250,
          price_ticks: 650103,
          side: 1,
          post_only: true,
          reduce_only: false,
          stp_mode: 2,
          order_type: 1,
          time_in_force: 0,
          client_order_id: 42n,
        },
        size: '0.0025',
        price: '65010.3',
      },
      intent: expect.objectContaining({ size: '0.0025', price: '65010.3' }),
    });
  });

  it.each([
    ['down', 'down', 123, 650102, '0.00123', '65010.2'],
    ['up', 'up', 124, 650103, '0.00124', '65010.3'],
    ['nearest', 'nearest', 123, 650102, '0.00123', '65010.2'],
  ] as const)('rounds only as the intent says (%s / %s)', (sizeRounding, priceRounding, steps, ticks, size, price) => {
    const verdict = preTradeChecks(
      placeLimit({ ...base, side: 'buy', size: '0.001234', price: '65010.24', sizeRounding, priceRounding }),
      btc,
      EMPTY_ACCOUNT_STATE,
      config,
    );
    if (!verdict.ok) throw new Error(verdict.refusal.reason);
    expect(verdict.action).toMatchObject({ order: { size_steps: steps, price_ticks: ticks }, size, price });
    expect(verdict.intent).toMatchObject({ size, price });
    expect(verdict.intent).not.toHaveProperty('sizeRounding');
  });

  it('carries GTT ttl_units only for GTT orders', () => {
    const verdict = preTradeChecks(
      placeLimit({ ...base, side: 'buy', size: '0.001', price: '60000', timeInForce: 'GTT', ttlUnits: 30 }),
      btc,
      EMPTY_ACCOUNT_STATE,
      config,
    );
    expect(verdict.ok && verdict.action.action === 'placeOrder' && verdict.action.order).toMatchObject({
      time_in_force: 1,
      ttl_units: 30,
    });
  });

  it('accepts a reduce-only order against an opposite position up to its size', () => {
    const verdict = preTradeChecks(
      placeLimit({ ...base, side: 'sell', size: '0.002', price: '66000', reduceOnly: true }),
      btc,
      longPosition,
      config,
    );
    expect(verdict.ok && verdict.action.action === 'placeOrder' && verdict.action.order.reduce_only).toBe(true);
  });
});

describe('preTradeChecks: refusals name the rule', () => {
  const limit = (over: Partial<Parameters<typeof placeLimit>[0]> = {}): Intent =>
    placeLimit({ ...base, side: 'buy', size: '0.001', price: '60000', ...over });

  it.each<[string, Intent, RefusalRule, MarketView?, AccountState?]>([
    ['size off the step grid without rounding', limit({ size: '0.000015' }), 'size_step'],
    ['price off the tick grid without rounding', limit({ price: '60000.05' }), 'price_tick'],
    ['size of zero', limit({ size: '0' }), 'size'],
    ['negative size', limit({ size: '-0.001' }), 'size'],
    ['size that rounds down to zero steps', limit({ size: '0.000001', sizeRounding: 'down' }), 'size'],
    ['size as a float-ish string', limit({ size: '1e-3' }), 'size'],
    ['size below min_order_size', limit({ size: '0.00014' }), 'min_order_size'],
    ['size_steps beyond uint32', limit({ size: '42949.67296' }), 'size_steps_range'],
    ['price_ticks beyond uint24', limit({ price: '1677721.6' }), 'price_ticks_range'],
    ['price of zero', limit({ price: '0' }), 'price'],
    ['post-only IOC', limit({ postOnly: true, timeInForce: 'IOC' }), 'post_only'],
    ['post-only FOK', limit({ postOnly: true, timeInForce: 'FOK' }), 'post_only'],
    ['GTT without ttl', limit({ timeInForce: 'GTT' }), 'ttl_units'],
    ['ttl on a GTC order', limit({ ttlUnits: 5 }), 'ttl_units'],
    ['ttl beyond uint16', limit({ timeInForce: 'GTT', ttlUnits: 65_536 }), 'ttl_units'],
    ['client order id 0', limit({ clientOrderId: 0n }), 'client_order_id'],
    ['client order id beyond uint64', limit({ clientOrderId: 1n << 64n }), 'client_order_id'],
    ['market id beyond 16 bits', limit({ marketId: 65_536 }), 'market_id'],
    ['market record for another market', limit({ marketId: 2 }), 'market_id'],
    ['inactive market', limit(), 'market_inactive', { ...btc, active: false }],
    ['locked market', limit(), 'market_inactive', { ...btc, config: { ...btc.config, unlocked: false } }],
    ['plain order in a reduce-only market', limit(), 'market_reduce_only', { ...btc, reduce_only: true }],
    ['taker order in a post-only market', limit(), 'market_post_only', { ...btc, post_only: true }],
    ['reduce-only without a position', limit({ reduceOnly: true }), 'reduce_only'],
    ['reduce-only on the same side as the position', limit({ reduceOnly: true }), 'reduce_only', btc, longPosition],
    [
      'reduce-only larger than the position',
      limit({ side: 'sell', size: '0.003', reduceOnly: true }),
      'reduce_only',
      btc,
      longPosition,
    ],
    [
      'market order with GTC',
      { ...placeMarket({ ...base, side: 'buy', size: '0.001' }), timeInForce: 'GTC' } as unknown as Intent,
      'time_in_force',
    ],
    [
      'a post-only market order',
      { ...placeMarket({ ...base, side: 'buy', size: '0.001' }), postOnly: true } as unknown as Intent,
      'post_only',
    ],
    [
      'market order in a post-only market',
      placeMarket({ ...base, side: 'buy', size: '0.001' }),
      'market_post_only',
      { ...btc, post_only: true },
    ],
    [
      'market order slippage above the limit',
      placeMarket({ ...base, side: 'buy', size: '0.001', maxSlippageBps: 501 }),
      'slippage',
    ],
    [
      'market order without a mark',
      placeMarket({ ...base, side: 'buy', size: '0.001' }),
      'mark_price',
      { ...btc, mark_price: '0' },
    ],
    ['close without a position', closePosition(base), 'reduce_only'],
    ['leverage 0', setLeverage({ ...base, leverage: 0 }), 'leverage'],
    ['leverage above the market max', setLeverage({ ...base, leverage: 51 }), 'leverage'],
    [
      'leverage above uint8 when the market allows more',
      setLeverage({ ...base, leverage: 256 }),
      'leverage',
      { ...btc, config: { ...btc.config, max_leverage: '1000' } },
    ],
    ['fractional leverage', setLeverage({ ...base, leverage: 2.5 }), 'leverage'],
    ['unknown margin mode', setMarginMode({ ...base, marginMode: 'portfolio' as 'cross' }), 'margin_mode'],
    [
      'isolated margin with too many decimals',
      adjustIsolatedMargin({ ...base, amount: '0.0000000000000000001' }),
      'isolated_margin_amount',
    ],
    ['isolated margin of zero', adjustIsolatedMargin({ ...base, amount: '0' }), 'isolated_margin_amount'],
    [
      'isolated margin beyond int128',
      adjustIsolatedMargin({ ...base, amount: '170141183460469231732' }),
      'isolated_margin_amount',
    ],
    ['cancel with a malformed order id', cancel({ ...base, target: { orderId: 'not-hex' } }), 'cancel_target'],
    ['an unknown intent kind', { ...base, kind: 'transfer' } as unknown as Intent, 'intent'],
    ['an empty intent id', { ...limit(), intentId: '' }, 'intent'],
    ['malformed step size', limit(), 'market_config', { ...btc, config: { ...btc.config, step_size: '0' } }],
  ])('refuses %s', (_name, intent, rule, market = btc, account = EMPTY_ACCOUNT_STATE) => {
    expect(refusedBy(intent, market, account)).toBe(rule);
  });

  it('refuses an order for a market it has no record of', () => {
    const verdict = preTradeChecks(limit(), undefined, EMPTY_ACCOUNT_STATE, config);
    expect(verdict).toMatchObject({ ok: false, refusal: { rule: 'market_id', reason: 'unknown market' } });
  });

  it('says what the value was and what to do', () => {
    const verdict = preTradeChecks(limit({ size: '0.000015' }), btc, EMPTY_ACCOUNT_STATE, config);
    expect(verdict).toMatchObject({
      ok: false,
      refusal: {
        rule: 'size_step',
        value: '0.000015',
        reason: expect.stringContaining('0.00001'),
        hints: [expect.stringContaining('sizeRounding')],
      },
    });
  });
});

describe('preTradeChecks: the decimals the guards read next', () => {
  it('hands the snapped size and price to the parse memo with the exact values they were made from', () => {
    // 12345.04 rounds down to 123450 ticks of 0.1, written "12345": a parse of that text would give
    // scale 0, the checks' own value has the tick's scale 1.
    const verdict = preTradeChecks(
      placeLimit({
        ...base,
        side: 'buy',
        size: '0.0012349',
        price: '12345.04',
        sizeRounding: 'down',
        priceRounding: 'down',
      }),
      btc,
      EMPTY_ACCOUNT_STATE,
      config,
    );
    if (!verdict.ok || verdict.intent.kind !== 'placeLimit') throw new Error('expected a passing limit order');
    expect(verdict.intent).toMatchObject({ size: '0.00123', price: '12345' });
    expect(parseDecimal(verdict.intent.price, 'price')).toEqual({ units: 123450n, scale: 1 });
    expect(parseDecimal(verdict.intent.size, 'size')).toEqual({ units: 123n, scale: 5 });
  });
});

describe('preTradeChecks: market orders and closes', () => {
  it('derives the slippage bound from the mark, rounding toward the mark', () => {
    const buy = preTradeChecks(
      placeMarket({ ...base, side: 'buy', size: '0.001', maxSlippageBps: 50 }),
      btc,
      EMPTY_ACCOUNT_STATE,
      config,
    );
    const sell = preTradeChecks(
      placeMarket({ ...base, side: 'sell', size: '0.001', maxSlippageBps: 50, timeInForce: 'FOK' }),
      btc,
      EMPTY_ACCOUNT_STATE,
      config,
    );
    // 65000.5 × 1.005 = 65325.5025 -> down to 65325.5; 65000.5 × 0.995 = 64675.4975 -> up to 64675.5
    expect(buy).toMatchObject({
      ok: true,
      action: { order: { order_type: 0, time_in_force: 3, price_ticks: 653255, side: 0 }, price: '65325.5' },
    });
    expect(sell).toMatchObject({
      ok: true,
      action: { order: { order_type: 0, time_in_force: 2, price_ticks: 646755, side: 1 }, price: '64675.5' },
    });
  });

  it('closes the whole position with a reduce-only market order on the other side', () => {
    const verdict = preTradeChecks(closePosition(base), btc, longPosition, config);
    expect(verdict).toMatchObject({
      ok: true,
      action: {
        order: { side: 1, size_steps: 200, reduce_only: true, order_type: 0, time_in_force: 3, post_only: false },
        size: '0.002',
      },
    });
  });

  it('lets a close through in a reduce-only market', () => {
    const verdict = preTradeChecks(closePosition(base), { ...btc, reduce_only: true }, longPosition, config);
    expect(verdict.ok).toBe(true);
  });
});

describe('preTradeChecks: account actions and cancels', () => {
  it.each<[Intent, unknown]>([
    [setLeverage({ ...base, leverage: 50 }), { action: 'updateLeverage', market_id: 1, leverage: 50 }],
    [setMarginMode({ ...base, marginMode: 'isolated' }), { action: 'updateMarginMode', market_id: 1, margin_mode: 1 }],
    [
      adjustIsolatedMargin({ ...base, amount: '-12.5' }),
      { action: 'updateIsolatedMargin', market_id: 1, amount: -12_500_000_000_000_000_000n },
    ],
    [
      cancel({ ...base, target: { orderId: '0xabc123' } }),
      { action: 'cancelOrder', market_id: 1, target: { orderId: '0xabc123' } },
    ],
    [cancelAll(base), { action: 'cancelAllOrders', market_id: 1 }],
  ])('maps %o to its wire values', (intent, action) => {
    expect(preTradeChecks(intent, btc, EMPTY_ACCOUNT_STATE, config)).toEqual({ ok: true, action, intent });
  });

  it('refuses a leverage change, and only that, when the market reports a malformed max_leverage', () => {
    const odd = { ...btc, config: { ...btc.config, max_leverage: 'fifty' } };
    expect(refusedBy(setLeverage({ ...base, leverage: 5 }), odd)).toBe('market_config');
    const order = placeLimit({ ...base, side: 'buy', size: '0.001', price: '60000' });
    expect(preTradeChecks(order, odd, EMPTY_ACCOUNT_STATE, config).ok).toBe(true);
  });

  it('refuses a cancel-all of market 0: whether it means "all markets" is disputed', () => {
    const verdict = preTradeChecks(cancelAll({ ...base, marketId: 0 }), undefined, EMPTY_ACCOUNT_STATE, config);
    expect(verdict).toMatchObject({ ok: false, refusal: { rule: 'market_id', value: '0' } });
  });

  it('still cancels in a halted or unknown market', () => {
    expect(preTradeChecks(cancelAll(base), undefined, EMPTY_ACCOUNT_STATE, config).ok).toBe(true);
    expect(
      preTradeChecks(
        cancel({ ...base, target: { intentId: 'i-0' } }),
        { ...btc, active: false },
        EMPTY_ACCOUNT_STATE,
        config,
      ).ok,
    ).toBe(true);
  });
});
