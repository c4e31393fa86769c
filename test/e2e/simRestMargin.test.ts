import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf, SimRestHarness } from './simRestHarness.js';
import { ceilDiv, notionalWei, readMarket, signedSteps, SimRestTrader, wei, type MarketWire } from './simRestTrader.js';

/**
 * Margin, fees and PnL over real HTTP, read back through GET /v1/account/position and
 * /v1/account/cross-margin-balance. Each test gets a fresh simulator with no blocks (no synthetic
 * makers, the mark moves only by `controls.setMark`), so every amount can be computed here from
 * the prices and sizes the test trades and the config the simulator serves.
 */
let h: SimRestHarness;

beforeEach(async () => {
  h = await SimRestHarness.start({ seed: 41, blockMs: 0, registrationLagMs: 0 });
});
afterEach(async () => {
  await h.close();
});

const USD = 10n ** 18n;
/** The simulator's default fee schedule (docs/spec-gaps/simulator.md, "Fees"), rounded up to the USD wei. */
const MAKER_FEE_BPS = 2n;
const TAKER_FEE_BPS = 5n;
const fee = (notional: bigint, bps: bigint): bigint => ceilDiv(notional * bps, 10_000n);
const SELL = 1;

const twoTraders = (): Promise<[SimRestTrader, SimRestTrader]> =>
  Promise.all([SimRestTrader.create(h), SimRestTrader.create(h)]);

/** The market's mark as price ticks (the simulator's initial marks sit on the grid). */
function markTicks(market: MarketWire): number {
  const ticks = wei(market.mark_price) / wei(market.config.step_price);
  expect(ticks * wei(market.config.step_price)).toBe(wei(market.mark_price));
  return Number(ticks);
}

describe('simulator REST: margin an order needs', () => {
  it('refuses the first size the account cannot margin with InsufficientMargin(required, equity), counting its resting orders', async () => {
    const trader = await SimRestTrader.create(h);
    const btc = await readMarket(h, 1);
    const leverage = 5n;
    expect((await trader.leverage(1, Number(leverage))).status).toBe(200);
    const equity = await trader.balanceWei();
    expect(equity).toBe(1000n * USD);
    // A bid above the mark is margined at its limit price: it may fill there.
    const ticks = markTicks(btc) + 10_000;
    const perStep = notionalWei(btc, ticks, 1);
    const most = (equity * leverage) / perStep;
    const required = (steps: bigint): bigint => ceilDiv(notionalWei(btc, ticks, steps), leverage);
    expect(required(most)).toBeLessThanOrEqual(equity);
    expect(required(most + 1n)).toBeGreaterThan(equity);

    const refused = await trader.place({ size_steps: Number(most + 1n), price_ticks: ticks });
    expect(errorOf(refused)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: PlaceOrder reverted: InsufficientMargin(${required(most + 1n)},${equity})`,
    });
    expect((await trader.place({ size_steps: Number(most), price_ticks: ticks })).status).toBe(200);
    // The resting bid holds its margin: a further small bid needs both.
    const more = await trader.place({ size_steps: 15, price_ticks: ticks });
    expect(errorOf(more).message).toBe(
      `FailedPrecondition: PlaceOrder reverted: InsufficientMargin(${required(most + 15n)},${equity})`,
    );
    // An ask only offsets the bids' exposure, so it needs no margin of its own.
    expect((await trader.place({ side: SELL, size_steps: 15, price_ticks: ticks + 100 })).status).toBe(200);
    expect(await trader.openOrders()).toHaveLength(2);
  });
});

describe('simulator REST: fees, entry price and PnL in the position and balance reads', () => {
  it('charges maker and taker fees, averages the entry, marks PnL to the mark and realises it on reduction', async () => {
    const btc = await readMarket(h, 1);
    const [maker, taker] = await twoTraders();
    const closer = await SimRestTrader.create(h);
    const entry = markTicks(btc);
    const size = 100n;
    await maker.place({ side: SELL, size_steps: Number(size), price_ticks: entry });
    expect(
      (await taker.place({ size_steps: Number(size), price_ticks: entry, time_in_force: 3 })).json['data']
        .filled_percent,
    ).toBe(100);
    const opening = notionalWei(btc, entry, size);
    expect(await taker.balanceWei()).toBe(1000n * USD - fee(opening, TAKER_FEE_BPS));
    expect(await maker.balanceWei()).toBe(1000n * USD - fee(opening, MAKER_FEE_BPS));

    const entryWei = BigInt(entry) * wei(btc.config.step_price);
    const long = await taker.position();
    // venue-wire.md §2 account/position: side and margin_mode are ints (0 = buy).
    expect(long).toMatchObject({ market_id: '1', side: 0, unrealized_pnl: '0' });
    expect(signedSteps(btc, long)).toBe(size);
    expect(wei(long['avg_entry_price'] ?? '')).toBe(entryWei);
    expect(signedSteps(btc, await maker.position())).toBe(-size);

    // The mark moves up 1,000 USD: the long gains and the short loses (mark − entry) × size.
    const markWei = entryWei + 1000n * USD;
    h.sim.controls.setMark(1, (markWei / USD).toString());
    const move = (steps: bigint): bigint => ((markWei - entryWei) * steps * wei(btc.config.step_size)) / USD;
    const marked = await taker.position();
    expect(wei(marked['mark_price'] ?? '')).toBe(markWei);
    expect(wei(marked['unrealized_pnl'] ?? '')).toBe(move(size));
    expect(wei((await maker.position())['unrealized_pnl'] ?? '')).toBe(-move(size));
    expect(await taker.balanceWei()).toBe(1000n * USD - fee(opening, TAKER_FEE_BPS));

    // Selling 40 at the new mark realises 40 steps of the move; the entry stays.
    const exitTicks = Number(markWei / wei(btc.config.step_price));
    await closer.place({ size_steps: Number(size), price_ticks: exitTicks });
    const part = 40n;
    expect(
      (
        await taker.place({
          side: SELL,
          size_steps: Number(part),
          price_ticks: exitTicks,
          reduce_only: true,
          time_in_force: 3,
        })
      ).status,
    ).toBe(200);
    const reduced = await taker.position();
    expect(signedSteps(btc, reduced)).toBe(size - part);
    expect(wei(reduced['avg_entry_price'] ?? '')).toBe(entryWei);
    // The venue's position read carries no realised PnL (venue-wire.md §2): the simulator's own record does.
    expect(wei(h.sim.context.exchange.position(taker.address, 1).realized_pnl)).toBe(move(part));
    expect(wei(reduced['unrealized_pnl'] ?? '')).toBe(move(size - part));
    const afterPart =
      1000n * USD - fee(opening, TAKER_FEE_BPS) + move(part) - fee(notionalWei(btc, exitTicks, part), TAKER_FEE_BPS);
    expect(await taker.balanceWei()).toBe(afterPart);

    // Closing the rest leaves a flat position and the whole move, less fees, in the balance.
    expect(
      (
        await taker.place({
          side: SELL,
          size_steps: Number(size - part),
          price_ticks: exitTicks,
          reduce_only: true,
          time_in_force: 3,
        })
      ).status,
    ).toBe(200);
    expect(await taker.position()).toMatchObject({ market_id: '0', size: '', side: 0 });
    expect(await taker.balanceWei()).toBe(
      afterPart + move(size - part) - fee(notionalWei(btc, exitTicks, size - part), TAKER_FEE_BPS),
    );
    // The closer bought at the exit price as a maker.
    expect(await closer.balanceWei()).toBe(
      1000n * USD -
        fee(notionalWei(btc, exitTicks, part), MAKER_FEE_BPS) -
        fee(notionalWei(btc, exitTicks, size - part), MAKER_FEE_BPS),
    );
  });
});

describe('simulator REST: isolated margin', () => {
  const ETH = 2;

  it('adds and removes isolated margin (negative amounts), refusing more than is free or removable', async () => {
    const eth = await readMarket(h, ETH);
    const [trader, maker] = await twoTraders();
    expect((await trader.marginMode(ETH, 1)).status).toBe(200);
    const cross = await trader.balanceWei();
    const tooMuch = await trader.isolatedMargin(ETH, cross + 1n);
    expect(errorOf(tooMuch)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: UpdateIsolatedMargin reverted: InsufficientCollateral(${cross + 1n},${cross})`,
    });
    expect((await trader.isolatedMargin(ETH, 50n * USD)).status).toBe(200);
    expect(await trader.balanceWei()).toBe(cross - 50n * USD);
    expect((await trader.isolatedMargin(ETH, -20n * USD)).status).toBe(200);
    expect(await trader.balanceWei()).toBe(cross - 30n * USD);
    // Flat: everything set aside is removable, and no more.
    const overdraw = await trader.isolatedMargin(ETH, -31n * USD);
    expect(errorOf(overdraw).message).toBe(
      `FailedPrecondition: UpdateIsolatedMargin reverted: InsufficientIsolatedMargin(${31n * USD},${30n * USD})`,
    );
    expect(await trader.balanceWei()).toBe(cross - 30n * USD);

    // With a position, the initial margin it needs stays behind.
    const ticks = markTicks(eth);
    const size = 100n;
    await maker.place({ market_id: ETH, side: SELL, size_steps: Number(size), price_ticks: ticks });
    expect(
      (await trader.place({ market_id: ETH, size_steps: Number(size), price_ticks: ticks, time_in_force: 3 })).json[
        'data'
      ].filled_percent,
    ).toBe(100);
    const position = await trader.position(ETH);
    const isolated = 30n * USD - fee(notionalWei(eth, ticks, size), TAKER_FEE_BPS);
    expect(position).toMatchObject({ market_id: String(ETH), side: 0, margin_mode: 1, unrealized_pnl: '0' });
    expect(wei(position['isolated_usdc_balance'] ?? '')).toBe(isolated);
    // The taker fee came out of the isolated balance, not the cross balance.
    expect(await trader.balanceWei()).toBe(cross - 30n * USD);
    const margin = ceilDiv(notionalWei(eth, ticks, size), BigInt(position['leverage'] ?? ''));
    const removable = isolated - margin;
    const refused = await trader.isolatedMargin(ETH, -(removable + 1n));
    expect(errorOf(refused).message).toBe(
      `FailedPrecondition: UpdateIsolatedMargin reverted: InsufficientIsolatedMargin(${removable + 1n},${removable})`,
    );
    expect((await trader.isolatedMargin(ETH, -removable)).status).toBe(200);
    expect(wei((await trader.position(ETH))['isolated_usdc_balance'] ?? '')).toBe(margin);
    expect(await trader.balanceWei()).toBe(cross - 30n * USD + removable);
  });
});
