import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, decimalToFixed, negateDecimal } from '../../src/core/decimal.js';
import { placesOf, toPlaces, USDC_PLACES } from '../../src/core/displayDecimal.js';
import type { Engine } from '../../src/engine/engine.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { BotStatus } from '../../src/runtime/operations/control/botStatus.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { engineOnSim } from './support/engineOnSim.js';
import { until } from './support/journalBot.js';
import { serviceBotConfig, startServiceBot, type ServiceBot } from './support/serviceBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/**
 * The must-show of the one valuation (issue 35, item 3): a bot trades on the simulator until it has
 * fills with fees, a realised loss or gain and an open position at an 18-decimal average entry; then
 * on `/api/status` (exact, the venue's 18 decimals) and on the dashboard in headless Chromium (as
 * shown, USDC to 6 places and prices to the market's tick), the figures reconcile with the
 * venue's balance to the last digit. Sign conventions: `fees` are what was paid (positive), so
 *
 *   balance − openingBalance = realisedPnl − fees + otherBalanceChange   (otherBalanceChange 0 here:
 *                                                                         the simulator pays no funding)
 *   equity = balance + unrealisedPnl;  netPnl = realisedPnl + unrealisedPnl − fees = equity − openingBalance
 */

const CHROMIUM = '/usr/bin/chromium';

/** Averaging in at two prices makes an entry of 65019.7714285714285714285…, 65019.771428571428571429 at 1 wei (half away from zero); a sale then realises against it. */
const TRADER = `  - name: trader
    module: strategies/ledgerProbe.ts
    markets: [1]
    params: { steps: [{ side: buy, size: "0.003" }, { side: buy, size: "0.004" }, { side: sell, size: "0.0025" }], report_ms: 60000 }`;

/** Resting liquidity of another account on both sides of the mark (no blocks: nothing else trades). */
async function makeMarket(maker: Engine): Promise<void> {
  const levels: [string, 'buy' | 'sell', string][] = [
    ['b1', 'buy', '64987.3'],
    ['b2', 'buy', '64971.9'],
    ['a1', 'sell', '65012.7'],
    ['a2', 'sell', '65029.2'],
  ];
  for (const [id, side, price] of levels) {
    const outcome = await maker.execute(
      placeLimit({ intentId: id, strategy: 'maker', marketId: 1, side, size: '0.004', price, postOnly: true }),
    );
    expect(outcome.type).toBe('accepted');
  }
}

/** Figures as the page shows them, by test id, and the rows of its money tables. */
interface PageMoney {
  readonly cards: Record<string, string>;
  readonly positions: Record<string, string>[];
  readonly fills: Record<string, string>[];
  readonly strategies: Record<string, string>[];
  /** Every decimal number with a fractional part anywhere in the page's text. */
  readonly decimals: string[];
}

const CARDS = [
  'balance',
  'opening-balance',
  'balance-change',
  'realised-pnl',
  'fees',
  'other-balance-change',
  'equity',
  'unrealised-pnl',
  'net-pnl',
];

const READ_PAGE = `(() => {
  const text = (id) => document.querySelector('[data-testid="' + id + '"]').textContent;
  const rows = (tbody, key) => [...document.querySelectorAll('[data-testid="' + tbody + '"] tr[data-' + key + ']')].map((tr) =>
    Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map((td) => [td.dataset.field, td.textContent])));
  return {
    cards: Object.fromEntries(${JSON.stringify(CARDS)}.map((id) => [id, text(id)])),
    positions: rows('positions', 'position'),
    fills: rows('fills', 'fill'),
    strategies: rows('strategies', 'strategy'),
    decimals: document.querySelector('main').innerText.match(/-?\\d+\\.\\d+/g) || [],
  };
})()`;

/** A figure shown with 6 places, as integer micro-USDC (refuses any other number of places). */
const micro = (shown: string | undefined): bigint => {
  expect(shown).toMatch(/^-?\d+\.\d{6}$/);
  return decimalToFixed(shown, USDC_PLACES, 'shown USDC');
};

const minus = (a: string, b: string): string => addDecimals(a, negateDecimal(b));

describe('one valuation: the dashboard and /api/status reconcile with the venue balance', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: ServiceBot | undefined;
  let maker: Engine | undefined;
  let browser: Browser | undefined;

  beforeEach(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium, as .ci/run does`);
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-valuation-'));
    mkdirSync(join(dir, 'strategies'), { recursive: true });
    writeFileSync(
      join(dir, 'strategies', 'ledgerProbe.ts'),
      `export { default } from ${JSON.stringify(new URL('./support/ledgerProbeStrategy.ts', import.meta.url).pathname)};\n`,
    );
  });
  afterEach(async () => {
    await browser?.close();
    await bot?.stop();
    await maker?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('realisedPnl − fees is the balance change and + unrealisedPnl the equity change, to the last digit, at the venue’s precision', async () => {
    const [who, other] = [await fundedAccount(sim), await fundedAccount(sim)];
    maker = engineOnSim(other);
    await maker.start();
    await makeMarket(maker);
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, TRADER));
    const running = bot;
    await until(() => running.lines.some((l) => l.includes('ledger probe: script done')), 20_000);
    // A new mark, published by one block (the oracle walks on from it).
    sim.controls.setMark(1, '65003.123456789012345678');
    const block = sim.controls.advanceBlocks(1);
    expect(block).toBeGreaterThan(0);
    const status = async (): Promise<BotStatus> =>
      (await (await fetch(`${running.url}/api/status`)).json()) as BotStatus;

    // Settled: the bot has heard of every fill, the balance and the mark the venue has now.
    const venue = await settled(who, status);
    const s = await status();
    expect(s.recentFills).toHaveLength(venue.fills);
    expect(s.balance).toBe(venue.balance);
    expect(s.positions).toHaveLength(1);
    const [position] = s.positions;
    expect(position!.markPrice).toBe(venue.markPrice);

    // /api/status, exact: the venue's balance reconciles with the ledger to the wei.
    const pnl = s.pnl!;
    expect(s.openingBalance).toBe('1000');
    expect(compareDecimals(pnl.fees, '0')).toBe(1);
    expect(compareDecimals(pnl.realisedPnl, '0')).not.toBe(0);
    expect(compareDecimals(pnl.unrealisedPnl, '0')).not.toBe(0);
    expect(s.balanceChange).toBe(minus(s.balance!, s.openingBalance!));
    expect(minus(pnl.realisedPnl, pnl.fees)).toBe(s.balanceChange);
    expect(s.otherBalanceChange).toBe('0');
    expect(s.equity).toBe(addDecimals(s.balance!, pnl.unrealisedPnl));
    expect(pnl.netPnl).toBe(minus(addDecimals(pnl.realisedPnl, pnl.unrealisedPnl), pnl.fees));
    expect(pnl.netPnl).toBe(minus(s.equity!, s.openingBalance!));
    // The position rows are valued the same way as the venue values them, and add up to the PnL's.
    expect(position!.unrealisedPnl).toBe(pnl.unrealisedPnl);
    expect(position!.avgEntryPrice).toBe(venue.avgEntryPrice);
    expect(position!.unrealisedPnl).toBe(venue.unrealisedPnl);
    expect(position!.signedSize).toBe('0.0045');
    // The exact figures carry the venue's 18 decimals: what the screens must not print.
    expect(position!.avgEntryPrice).toMatch(/\.\d{18}$/);

    // The dashboard in headless Chromium shows what /api/status says for display.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const page = await browser.newPage();
    await page.goto(running.url);
    await page.waitForSelector('[data-testid="positions"] tr[data-position="1"]');
    const read = (): Promise<PageMoney> => page.evaluate<PageMoney>(READ_PAGE);
    await until(async () => (await read()).cards['net-pnl'] === (await status()).display.pnl?.netPnl, 5_000);
    const shown = await read();
    const now = await status();
    expect(now.pnl).toEqual(s.pnl);
    const d = now.display;
    expect(shown.cards).toEqual({
      balance: d.balance,
      'opening-balance': d.openingBalance,
      'balance-change': d.balanceChange,
      'realised-pnl': d.pnl?.realisedPnl,
      fees: d.pnl?.fees,
      'other-balance-change': d.otherBalanceChange,
      equity: d.equity,
      'unrealised-pnl': d.pnl?.unrealisedPnl,
      'net-pnl': d.pnl?.netPnl,
    });

    // On the page, to the last digit shown: the same identities, in integer micro-USDC.
    const c = Object.fromEntries(Object.entries(shown.cards).map(([k, v]) => [k, micro(v)]));
    expect(c['realised-pnl']! - c['fees']! + c['other-balance-change']!).toBe(c['balance-change']);
    expect(c['other-balance-change']).toBe(0n);
    expect(c['opening-balance']! + c['balance-change']!).toBe(c['balance']);
    expect(c['balance']! + c['unrealised-pnl']!).toBe(c['equity']);
    expect(c['realised-pnl']! + c['unrealised-pnl']! - c['fees']!).toBe(c['net-pnl']);
    expect(c['equity']! - c['opening-balance']!).toBe(c['net-pnl']);
    expect(shown.positions.map((p) => micro(p['unrealisedPnl'])).reduce((a, b) => a + b)).toBe(c['unrealised-pnl']);
    // Balances are their exact values rounded half to even; every other line within one unit of its exact value.
    expect(shown.cards['balance']).toBe(toPlaces(s.balance!, USDC_PLACES));
    expect(shown.cards['opening-balance']).toBe('1000.000000');
    expect(shown.cards['equity']).toBe(toPlaces(s.equity!, USDC_PLACES));
    for (const [id, exact] of [
      ['realised-pnl', pnl.realisedPnl],
      ['fees', pnl.fees],
      ['unrealised-pnl', pnl.unrealisedPnl],
      ['net-pnl', pnl.netPnl],
      ['balance-change', s.balanceChange!],
    ] as const) {
      // In wei: one unit of the 6th place is 10^12 wei.
      const off = decimalToFixed(shown.cards[id], 18, id) - decimalToFixed(exact, 18, id);
      expect(off >= -(10n ** 12n) && off <= 10n ** 12n, `${id}: ${shown.cards[id]} for ${exact}`).toBe(true);
    }

    // Every money figure at the venue's precision: USDC with 6 places, prices with the tick's.
    const market = (await who.rest.markets()).markets.find((m) => m.market_id === '1')!;
    const tick = placesOf(market.config.step_price);
    expect(tick).toBe(1);
    const atTick = new RegExp(`^\\d+\\.\\d{${tick}}$`);
    for (const row of shown.positions) {
      expect(row['avgEntryPrice']).toMatch(atTick);
      expect(row['markPrice']).toMatch(atTick);
      micro(row['unrealisedPnl']);
    }
    expect(shown.positions[0]?.['avgEntryPrice']).toBe(toPlaces(position!.avgEntryPrice, tick));
    expect(shown.fills.length).toBe(venue.fills);
    for (const row of shown.fills) {
      expect(row['price']).toMatch(atTick);
      micro(row['fee']);
    }
    for (const row of shown.strategies) micro(row['netPnl']);
    // No 18-digit tails anywhere on the page: no decimal has more than 6 places.
    expect(shown.decimals.length).toBeGreaterThan(20);
    expect(shown.decimals.filter((n) => /\.\d{7,}$/.test(n))).toEqual([]);
  }, 90_000);
});

/** What the venue says now, once the bot's status has caught up with it: its balance, fills and position. */
async function settled(
  who: SimAccount,
  status: () => Promise<BotStatus>,
): Promise<{ balance: string; fills: number; markPrice: string; avgEntryPrice: string; unrealisedPnl: string }> {
  let last: { balance: string; fills: number; markPrice: string; avgEntryPrice: string; unrealisedPnl: string };
  await until(async () => {
    const [balance, trades, position, s] = await Promise.all([
      who.rest.crossMarginBalance(who.account),
      who.rest.tradeHistory({ account: who.account }),
      who.rest.position({ account: who.account, market_id: '1' }),
      status(),
    ]);
    last = {
      balance: balance.balance,
      fills: trades.trades.length,
      markPrice: position.mark_price ?? '',
      avgEntryPrice: position.avg_entry_price ?? '',
      unrealisedPnl: position.unrealized_pnl ?? '',
    };
    return (
      s.balance !== null &&
      compareDecimals(s.balance, last.balance) === 0 &&
      s.recentFills.length === last.fills &&
      s.positions[0]?.markPrice !== undefined &&
      s.positions[0].markPrice !== null &&
      compareDecimals(s.positions[0].markPrice, last.markPrice || '0') === 0
    );
  }, 15_000);
  return last!;
}
