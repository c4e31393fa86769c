import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/core/address.js';
import { parseVenueErrorText } from '../../../src/venue/venueError.js';
import { ALICE, BOB, T0, limit, market, ofType, quietExchange, refusalText } from './exchangeFixture.js';

const DAVE = '0x4444444444444444444444444444444444444444' as Address;
const WEI = 10n ** 18n;

/** DAVE holds 100 USDC at the default leverage 10: 1,000 USDC of notional in market 1 (mark 65,000). */
function smallAccount() {
  const ex = quietExchange();
  ex.deposit(DAVE, '100');
  return ex;
}

describe('initial margin on orders', () => {
  it.each([
    { steps: 1500, ok: true, note: '975 USDC notional needs 97.5' },
    { steps: 1538, ok: true, note: '999.7 needs 99.97' },
    { steps: 1600, ok: false, note: '1040 needs 104' },
  ])('$steps steps: $note', ({ steps, ok }) => {
    const ex = smallAccount();
    const place = () => ex.placeOrder(DAVE, limit(0, 650_000, steps), T0);
    if (ok) expect(place().order.status).toBe('ORDER_STATUS_OPEN');
    else
      expect(refusalText(place)).toBe(
        `FailedPrecondition: PlaceOrder reverted: InsufficientMargin(${104n * WEI},${100n * WEI})`,
      );
  });

  it('counts open orders: a second order that would need more than the equity is refused', () => {
    const ex = smallAccount();
    ex.placeOrder(DAVE, limit(0, 650_000, 1500), T0);
    ex.placeOrder(DAVE, limit(0, 650_000, 15), T0);
    // 1565 steps of buys at 65,000 = 1,017.25 USDC of notional → 101.725 of margin.
    expect(refusalText(() => ex.placeOrder(DAVE, limit(0, 650_000, 50), T0))).toBe(
      `FailedPrecondition: PlaceOrder reverted: InsufficientMargin(${(101725n * WEI) / 1000n},${100n * WEI})`,
    );
    // Sells are the other side: the worse side (the buys) still decides, so they fit.
    expect(ex.placeOrder(DAVE, limit(1, 660_000, 50), T0).order.status).toBe('ORDER_STATUS_OPEN');
  });

  it("adds the other markets' margin to the cross pool's: an order refused in market 2 needs what market 1's orders hold too", () => {
    const amountsOf = (text: string) => /InsufficientMargin\((\d+),(\d+)\)/.exec(text)?.slice(1).map(BigInt);
    // Market 2 alone (mark 3,200): 1,000 steps rest, 2,500 more would need more than the equity.
    const alone = smallAccount();
    alone.placeOrder(DAVE, limit(0, 320_000, 1000, { market_id: 2 }), T0);
    const [needAlone] = amountsOf(
      refusalText(() => alone.placeOrder(DAVE, limit(0, 320_000, 2500, { market_id: 2 }), T0)),
    )!;
    // With 300 steps of buys resting in market 1 too: 195 USDC of notional, 19.5 of margin more.
    const both = smallAccount();
    both.placeOrder(DAVE, limit(0, 650_000, 300), T0);
    both.placeOrder(DAVE, limit(0, 320_000, 1000, { market_id: 2 }), T0);
    const [need, equity] = amountsOf(
      refusalText(() => both.placeOrder(DAVE, limit(0, 320_000, 2500, { market_id: 2 }), T0)),
    )!;
    expect(need).toBe(needAlone! + (195n * WEI) / 10n);
    expect(equity).toBe(100n * WEI);
  });

  it('values a buy above the mark at its limit price', () => {
    const ex = smallAccount();
    // 1500 steps at 70,000 = 1,050 notional → 105 > 100, though at the mark it would be 97.5.
    const text = refusalText(() => ex.placeOrder(DAVE, limit(0, 700_000, 1500), T0));
    expect(text).toBe(`FailedPrecondition: PlaceOrder reverted: InsufficientMargin(${105n * WEI},${100n * WEI})`);
    expect(parseVenueErrorText(text)).toMatchObject({ statusName: 'FailedPrecondition', action: 'PlaceOrder' });
  });

  it('lets an underwater account reduce its position, and reduce-only orders need no margin', () => {
    const ex = smallAccount();
    ex.placeOrder(BOB, limit(1, 650_000, 1500), T0);
    ex.placeOrder(DAVE, market(0, 650_000, 1500), T0);
    ex.setMark(1, '60000');
    // Equity 100 − 0.4875 fee − 75 loss ≈ 24.5, initial margin 90: new exposure is refused …
    expect(refusalText(() => ex.placeOrder(DAVE, limit(0, 590_000, 15), T0))).toMatch(
      /^FailedPrecondition: PlaceOrder reverted: InsufficientMargin\(/,
    );
    // … closing is not.
    ex.placeOrder(BOB, limit(0, 600_000, 2000), T0);
    expect(ex.placeOrder(DAVE, market(1, 600_000, 500), T0).order.status).toBe('ORDER_STATUS_FILLED');
    expect(ex.placeOrder(DAVE, market(1, 600_000, 1000, { reduce_only: true }), T0).order.status).toBe(
      'ORDER_STATUS_FILLED',
    );
    expect(ex.position(DAVE, 1).size).toBe('0');
  });
});

describe('leverage', () => {
  it.each([
    { market: 1, leverage: 0, text: 'InvalidArgument: leverage must be an integer 1 to 255 (uint8), got 0' },
    { market: 1, leverage: 256, text: 'InvalidArgument: leverage must be an integer 1 to 255 (uint8), got 256' },
    { market: 1, leverage: 51, text: 'InvalidArgument: leverage 51 is above max_leverage 50 of market 1' },
    { market: 2, leverage: 26, text: 'InvalidArgument: leverage 26 is above max_leverage 25 of market 2' },
    { market: 1, leverage: 50, text: undefined },
    { market: 3, leverage: 1, text: undefined },
  ])('market $market leverage $leverage', ({ market: id, leverage, text }) => {
    const ex = quietExchange();
    const act = () => ex.setLeverage(ALICE, id, leverage);
    if (text === undefined) {
      const events = act().events;
      expect(ofType(events, 'position')[0]?.position.leverage).toBe(String(leverage));
      expect(ex.position(ALICE, id).leverage).toBe(String(leverage));
    } else {
      expect(refusalText(act)).toBe(text);
      expect(ex.position(ALICE, id).leverage).toBe('10');
    }
  });

  it('higher leverage frees margin; lowering it below what the position needs is refused', () => {
    const ex = smallAccount();
    expect(() => ex.placeOrder(DAVE, limit(0, 650_000, 3000), T0)).toThrow();
    ex.setLeverage(DAVE, 1, 20);
    ex.placeOrder(BOB, limit(1, 650_000, 3000), T0);
    ex.placeOrder(DAVE, limit(0, 650_000, 3000), T0);
    expect(refusalText(() => ex.setLeverage(DAVE, 1, 5))).toMatch(
      /^FailedPrecondition: UpdateLeverage reverted: InsufficientMargin\(/,
    );
    expect(ex.position(DAVE, 1).leverage).toBe('20');
  });
});

describe('margin mode', () => {
  it.each([
    { side: 0 as const, args: '1500' },
    { side: 1 as const, args: '-1500' },
  ])('switching with an open position fails with OpenPositionExists($args)', ({ side, args }) => {
    const ex = quietExchange();
    ex.placeOrder(BOB, limit(side === 0 ? 1 : 0, 650_000, 1500), T0);
    ex.placeOrder(ALICE, limit(side, 650_000, 1500), T0);
    const text = refusalText(() => ex.setMarginMode(ALICE, 1, 1));
    expect(text).toBe(`FailedPrecondition: UpdateMarginMode reverted: OpenPositionExists(${args})`);
    expect(parseVenueErrorText(text)).toMatchObject({
      kind: 'OpenPositionExists',
      args: [args],
      action: 'UpdateMarginMode',
    });
  });

  it('refuses values other than 0 and 1, and switching with open orders', () => {
    const ex = quietExchange();
    expect(refusalText(() => ex.setMarginMode(ALICE, 1, 2))).toBe(
      'InvalidArgument: margin_mode must be 0 (Cross) or 1 (Isolated), got 2',
    );
    ex.placeOrder(ALICE, limit(0, 600_000, 20), T0);
    expect(refusalText(() => ex.setMarginMode(ALICE, 1, 1))).toBe(
      'FailedPrecondition: UpdateMarginMode reverted: OpenOrdersExist(1)',
    );
  });
});

describe('isolated margin', () => {
  it('add and remove only in isolated mode, within free collateral and the position’s needs', () => {
    const ex = smallAccount();
    expect(refusalText(() => ex.adjustIsolatedMargin(DAVE, 1, 10n * WEI))).toBe(
      'FailedPrecondition: UpdateIsolatedMargin reverted: NotIsolatedMarginMode(1)',
    );
    ex.setMarginMode(DAVE, 1, 1);
    // Isolated orders are margined by the isolated balance only.
    expect(refusalText(() => ex.placeOrder(DAVE, limit(0, 650_000, 100), T0))).toBe(
      `FailedPrecondition: PlaceOrder reverted: InsufficientMargin(${(65n * WEI) / 10n},0)`,
    );
    expect(refusalText(() => ex.adjustIsolatedMargin(DAVE, 1, 101n * WEI))).toBe(
      `FailedPrecondition: UpdateIsolatedMargin reverted: InsufficientCollateral(${101n * WEI},${100n * WEI})`,
    );
    const added = ex.adjustIsolatedMargin(DAVE, 1, 40n * WEI);
    expect(ofType(added.events, 'position')[0]?.position.isolated_usdc_balance).toBe('40');
    expect(ofType(added.events, 'balance')[0]?.balance.balance).toBe('60');

    ex.placeOrder(BOB, limit(1, 650_000, 500), T0);
    ex.placeOrder(DAVE, limit(0, 650_000, 500), T0);
    // Position 325 USDC at 10x needs 32.5; fee 0.1625 came out of the isolated balance.
    expect(ex.position(DAVE, 1).isolated_usdc_balance).toBe('39.8375');
    expect(ex.balance(DAVE).balance).toBe('60');
    expect(refusalText(() => ex.adjustIsolatedMargin(DAVE, 1, -8n * WEI))).toBe(
      `FailedPrecondition: UpdateIsolatedMargin reverted: InsufficientIsolatedMargin(${8n * WEI},${(73375n * WEI) / 10000n})`,
    );
    ex.adjustIsolatedMargin(DAVE, 1, -7n * WEI);
    expect(ex.position(DAVE, 1).isolated_usdc_balance).toBe('32.8375');
    expect(ex.balance(DAVE).balance).toBe('67');
  });

  it('refuses a zero amount and one outside int128', () => {
    const ex = smallAccount();
    ex.setMarginMode(DAVE, 1, 1);
    expect(refusalText(() => ex.adjustIsolatedMargin(DAVE, 1, 0n))).toBe('InvalidArgument: amount must not be 0');
    expect(refusalText(() => ex.adjustIsolatedMargin(DAVE, 1, 1n << 127n))).toMatch(
      /^InvalidArgument: amount must fit int128/,
    );
  });

  it('returns the isolated balance to cross when switching back with no position', () => {
    const ex = smallAccount();
    ex.setMarginMode(DAVE, 1, 1);
    ex.adjustIsolatedMargin(DAVE, 1, 25n * WEI);
    expect(ex.balance(DAVE).balance).toBe('75');
    ex.setMarginMode(DAVE, 1, 0);
    expect(ex.balance(DAVE).balance).toBe('100');
    expect(ex.position(DAVE, 1)).toMatchObject({ margin_mode: 0, isolated_usdc_balance: '0' });
  });
});
