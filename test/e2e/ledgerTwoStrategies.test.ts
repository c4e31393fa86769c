import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, multiplyDecimals, negateDecimal } from '../../src/core/decimal.js';
import type { Engine } from '../../src/engine/engine.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { PnlView } from '../../src/engine/ledger/pnlView.js';
import { journalPnl } from '../../src/journal/journalPnl.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { engineOnSim } from './support/engineOnSim.js';
import { until } from './support/journalBot.js';
import { parsePrometheus, serviceBotConfig, startServiceBot, type ServiceBot } from './support/serviceBot.js';
import { fundedAccount } from './support/simAccount.js';

/**
 * Two strategies trading one market on the simulator: each one's PnL agrees, to the last digit,
 * in `ctx.pnl.own()`, `/api/status`, `/metrics` and the journal; the account's netPnl is the
 * venue's own (its balance's change plus its position's unrealised PnL) to the wei; the two
 * strategies add up to the account's PnL computed here from the venue's fills and mark, up to
 * the wei each book's average entry rounds; every venue fill belongs to exactly one of them (a
 * closePosition's included); the journal's order states are the venue's.
 */
const STRATEGIES = `  - name: alpha
    module: strategies/ledgerProbe.ts
    markets: [1]
    params: { steps: [{ side: buy, size: "0.002" }, { side: sell, size: "0.001" }, close] }
  - name: beta
    module: strategies/ledgerProbe.ts
    markets: [1]
    params: { steps: [{ side: buy, size: "0.001" }, { side: buy, size: "0.002" }, { side: sell, size: "0.00125" }] }`;

interface Line {
  readonly msg?: string;
  readonly strategy?: string;
  readonly intentId?: string;
  readonly pnl?: PnlView;
}

const parsed = (bot: ServiceBot): Line[] => bot.lines.map((l) => JSON.parse(l) as Line);

/** Resting liquidity of another account on both sides of the mark (no synthetic makers: no blocks). */
async function makeMarket(maker: Engine): Promise<void> {
  const levels: [string, 'buy' | 'sell', string][] = [
    ['b1', 'buy', '64987.3'],
    ['b2', 'buy', '64971.9'],
    ['a1', 'sell', '65012.7'],
    ['a2', 'sell', '65029.1'],
  ];
  for (const [id, side, price] of levels) {
    const outcome = await maker.execute(
      placeLimit({ intentId: id, strategy: 'maker', marketId: 1, side, size: '0.004', price, postOnly: true }),
    );
    expect(outcome.type).toBe('accepted');
  }
}

describe('one ledger: two strategies in one market on the simulator', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: ServiceBot | undefined;
  let maker: Engine | undefined;
  beforeEach(async () => {
    // No blocks: the mark stays where it starts, so every reader values open lots alike.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-ledger-'));
    mkdirSync(join(dir, 'strategies'), { recursive: true });
    writeFileSync(
      join(dir, 'strategies', 'ledgerProbe.ts'),
      `export { default } from ${JSON.stringify(new URL('./support/ledgerProbeStrategy.ts', import.meta.url).pathname)};\n`,
    );
  });
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await maker?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('agrees in ctx.pnl, /api/status, /metrics and the journal, adds up to the venue, and attributes every fill', async () => {
    const [who, other] = [await fundedAccount(sim), await fundedAccount(sim)];
    maker = engineOnSim(other);
    await maker.start();
    await makeMarket(maker);
    bot = await startServiceBot(sim, who, dir, serviceBotConfig(dir, STRATEGIES));
    const running = bot;
    const done = (name: string) =>
      parsed(running).some((l) => l.msg === 'ledger probe: script done' && l.strategy === name);
    await until(() => done('alpha') && done('beta'), 20_000);
    // A report after both scripts ended: nothing moves any more (no fills, no new mark).
    const reportsBefore = parsed(running).filter((l) => l.msg === 'ledger probe: pnl').length;
    await until(() => parsed(running).filter((l) => l.msg === 'ledger probe: pnl').length >= reportsBefore + 4);
    const own = (name: string): PnlView => {
      const last = parsed(running)
        .filter((l) => l.msg === 'ledger probe: pnl' && l.strategy === name)
        .at(-1)?.pnl;
      if (last === undefined) throw new Error(`no PnL report of ${name}`);
      return last;
    };
    const status = (await (await fetch(`${running.url}/api/status`)).json()) as {
      pnl: { realisedPnl: string; unrealisedPnl: string; fees: string; netPnl: string };
      openingBalance: string;
      unattributed: { fills: number };
      strategies: {
        name: string;
        pnl: { realisedPnl: string; unrealisedPnl: string; fees: string; netPnl: string };
      }[];
    };
    const metrics = parsePrometheus(await (await fetch(`${running.url}/metrics`)).text());
    const mark = running.engine.market(1)?.mark_price;
    expect(mark).toBeDefined();
    const alphaClose = parsed(running)
      .filter((l) => l.msg === 'ledger probe: step ended' && l.strategy === 'alpha')
      .at(-1)?.intentId;
    await running.stop();
    bot = undefined;

    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    const journalFills = journal.recentFills(Number.MAX_SAFE_INTEGER, who.account).reverse();
    const journalOrders = journal.recentOrders(Number.MAX_SAFE_INTEGER, who.account);
    journal.close();
    const fromJournal = journalPnl(journalFills, () => mark);

    for (const name of ['alpha', 'beta']) {
      const view = own(name);
      expect(view.unpricedMarkets).toEqual([]);
      // The status and the metrics show the very digits ctx.pnl.own() gave.
      expect(status.strategies.find((s) => s.name === name)?.pnl).toEqual({
        realisedPnl: view.realisedPnl,
        unrealisedPnl: view.unrealisedPnl,
        fees: view.fees,
        netPnl: view.netPnl,
      });
      const gauge = (kind: string) =>
        metrics.find((s) => s.name === 'perpbot_pnl_usdc' && s.labels['strategy'] === name && s.labels['kind'] === kind)
          ?.value;
      expect([gauge('realised'), gauge('unrealised'), gauge('fees'), gauge('net')]).toEqual(
        [view.realisedPnl, view.unrealisedPnl, view.fees, view.netPnl].map(Number),
      );
      // The journal's fills of the strategy, booked by the same ledger, give the same figures.
      expect(fromJournal.find((r) => r.strategy === name)?.pnl).toEqual(view);
    }

    // Every venue fill is journaled once and attributed to exactly one strategy, the close's included.
    const venueFills = (await who.rest.tradeHistory({ account: who.account })).trades;
    expect(journalFills.map((f) => f.fillId).sort()).toEqual(venueFills.map((f) => f.id).sort());
    expect(new Set(journalFills.map((f) => f.strategy))).toEqual(new Set(['alpha', 'beta']));
    expect(status.unattributed.fills).toBe(0);
    expect(alphaClose).toBeDefined();
    expect(journalFills.some((f) => f.intentId === alphaClose && f.strategy === 'alpha')).toBe(true);

    // The account's PnL from the venue's fills and mark: cash the fills moved, the position at the mark, fees.
    let cash = '0';
    let position = '0';
    let fees = '0';
    for (const f of venueFills) {
      const value = multiplyDecimals(f.price, f.size);
      cash = addDecimals(cash, f.side === 'sell' ? value : negateDecimal(value));
      position = addDecimals(position, f.side === 'buy' ? f.size : negateDecimal(f.size));
      fees = addDecimals(fees, f.fee);
    }
    const cashNet = addDecimals(addDecimals(cash, multiplyDecimals(position, mark ?? '0')), negateDecimal(fees));
    // The venue's own figure, as it settles: the balance's change and the position's unrealised PnL.
    const balance = (await who.rest.crossMarginBalance(who.account)).balance;
    const held = await who.rest.position({ account: who.account, market_id: '1' });
    const venueNet = addDecimals(
      addDecimals(balance, negateDecimal(status.openingBalance)),
      held.unrealized_pnl || '0',
    );
    expect(status.pnl.netPnl).toBe(venueNet);
    // Each book rounds its own average entry to 1 wei, so the strategies' sum and the exact
    // cash-flow figure may differ from the account's by wei, never by a digit anyone reads.
    const sum = addDecimals(own('alpha').netPnl, own('beta').netPnl);
    for (const figure of [sum, cashNet]) {
      const off = addDecimals(figure, negateDecimal(status.pnl.netPnl));
      expect(compareDecimals(off, '0.000000000001')).toBeLessThan(1);
      expect(compareDecimals(off, '-0.000000000001')).toBeGreaterThan(-1);
    }
    expect(compareDecimals(addDecimals(own('alpha').fees, own('beta').fees), fees)).toBe(0);

    // The journal's order states are the venue's order history: a filled market order or close is filled.
    const venueOrders = (await who.rest.orderHistory({ account: who.account, limit: 1000 })).orders;
    const ours = journalOrders.filter((o) => o.orderId !== undefined);
    expect(ours.length).toBeGreaterThanOrEqual(6);
    for (const o of ours) {
      const venue = venueOrders.find((v) => v.id.toLowerCase() === o.orderId?.toLowerCase());
      expect(venue, o.intentId).toBeDefined();
      expect([o.intentId, o.state], o.intentId).toEqual([
        o.intentId,
        venue?.status.replace('ORDER_STATUS_', '').toLowerCase(),
      ]);
      expect(compareDecimals(o.filledSize, venue?.filled_size ?? ''), o.intentId).toBe(0);
    }
  }, 60_000);
});
