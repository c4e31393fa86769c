import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { reconcileWithVenue } from '../../src/journal/reconcileWithVenue.js';
import type { Difference } from '../../src/journal/reconciliationReport.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import type { FillRecord } from '../../src/venue/schemas/wsFramesPrivate.js';
import { VenueError } from '../../src/venue/venueError.js';
import { startFaultyRestProxy, type FaultyRestProxy } from './support/faultyRestProxy.js';
import { sellInto } from './support/counterparty.js';
import { engineOnSim } from './support/engineOnSim.js';
import { journalBotConfig, prepareProbeRoot, startBotOnSim, startJournalBot, until } from './support/journalBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/** Another trader on the same venue, without a journal: the taker that hits the bot's bids. */
async function taker(sim: RunningSim): Promise<Engine> {
  const engine = engineOnSim(await fundedAccount(sim));
  await engine.start();
  return engine;
}

/** The venue's own record of the account's fills (the simulator's trade history). */
async function venueFills(who: SimAccount): Promise<FillRecord[]> {
  return (await who.rest.tradeHistory({ account: who.account, limit: 1000 })).trades;
}

/** A fill as [id, size, price, fee], from the venue's record or the journal's. */
const row = (
  f:
    | { id: string; size: string; price: string; fee?: string }
    | { fillId: string; size: string; price: string; fee?: string },
) => ['id' in f ? f.id : f.fillId, f.size, f.price, f.fee];

describe('reconciliation reads the venue history (runBot on the simulator)', () => {
  let sim: RunningSim;
  let proxy: FaultyRestProxy | undefined;
  let dir: string;
  beforeEach(async () => {
    // No blocks: no synthetic liquidity, so every fill here is one the test made.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-history-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('journals fills made while the WebSocket was down once, with their real ids, prices and fees, and not again when it returns', async () => {
    const who = await fundedAccount(sim);
    const other = await taker(sim);
    // The bot's REST goes through a proxy: failing the login nonce keeps its WebSocket from authenticating.
    proxy = await startFaultyRestProxy(sim.restUrl);
    const bot = await startBotOnSim(sim, who, journalBotConfig(dir), dir, { restUrl: proxy.url });
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    const reconnectReports = () =>
      (
        journal.db.prepare("SELECT differences FROM reconciliations WHERE trigger = 'reconnect' ORDER BY id").all() as {
          differences: string;
        }[]
      ).map((r) => JSON.parse(r.differences) as Difference[]);
    const counted: string[] = [];
    const subscription = bot.engine.fills$.subscribe((f) => counted.push(f.id));
    try {
      await until(
        () => bot.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
      );
      const bids = bot.engine.tracker.openOrders({ strategy: 'probe' });

      // Down: the socket drops and cannot authenticate again.
      proxy.fail('/v1/auth/nonce');
      expect(sim.controls.dropAccountWebSockets(who.account)).toBeGreaterThan(0);
      await until(() => bot.engine.conditions.state.mode === 'degraded');
      // The taker sells through both of the bot's bids (64000 and 63000).
      expect(
        (
          await other.execute(
            placeLimit({
              intentId: 'hit',
              strategy: 'x',
              marketId: 1,
              side: 'sell',
              size: '0.001',
              price: '63000',
              timeInForce: 'IOC',
            }),
          )
        ).type,
      ).toBe('accepted');
      const made = await venueFills(who);
      expect(made.map((f) => [f.size, f.price])).toEqual([
        ['0.0005', '63000'],
        ['0.0005', '64000'],
      ]);
      expect(journal.recentFills(10)).toEqual([]);

      // Back: the reconnect reconciliation reads them from the trade history.
      proxy.restore();
      await until(() => reconnectReports().length === 1 && bot.engine.conditions.state.mode === 'trading', 20_000);
      const fills = journal.recentFills(10);
      expect(fills.map((f) => f.source)).toEqual(['history', 'history']);
      expect(fills.map(row).sort()).toEqual(made.map(row).sort());
      expect(fills.map((f) => f.intentId).sort()).toEqual(bids.map((b) => b.intentId).sort());
      for (const b of bids) expect(journal.order(b.intentId)).toMatchObject({ state: 'filled', filledSize: '0.0005' });
      expect(
        reconnectReports()[0]!
          .filter((d) => d.type === 'fill_recovered')
          .map((d) => (d.type === 'fill_recovered' ? d.fillId : ''))
          .sort(),
      ).toEqual(made.map((f) => f.id).sort());
      expect(
        reconnectReports()[0]!.filter((d) => d.type === 'fill_inferred' || d.type === 'position_unexplained'),
      ).toEqual([]);
      // The engine counted each once too (strategies and budgets hear fills from it).
      expect(counted.sort()).toEqual(made.map((f) => f.id).sort());

      // Another drop: the next reconciliation reads the same fills again (they are inside its
      // window's margin) and journals and counts none of them twice.
      expect(sim.controls.dropAccountWebSockets(who.account)).toBeGreaterThan(0);
      await until(() => reconnectReports().length === 2 && bot.engine.conditions.state.mode === 'trading', 20_000);
      expect(reconnectReports()[1]!.filter((d) => d.type === 'fill_recovered')).toEqual([]);
      expect(journal.recentFills(10).map(row).sort()).toEqual(made.map(row).sort());
      expect(counted).toHaveLength(2);
      expect((await who.rest.position({ account: who.account, market_id: '1' })).size).toBe('0.001');
    } finally {
      subscription.unsubscribe();
      journal.close();
      await bot.stop();
      await other.stop();
    }
  }, 60_000);

  it('reconciles an order filled while the bot was stopped from history at the next start; infers it only where history is unavailable', async () => {
    const who = await fundedAccount(sim);
    const other = await taker(sim);
    const run1 = await startJournalBot(sim, who, dir);
    await until(
      () => run1.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
    );
    const high = run1.engine.tracker.openOrders({ strategy: 'probe' }).find((o) => o.price === '64000')!;
    await run1.stop();

    // While the bot is stopped, the taker sells into the 64000 bid.
    expect((await sellInto(other)).type).toBe('accepted');
    await other.stop();
    const made = await venueFills(who);
    expect(made.map((f) => [f.order_id.toLowerCase(), f.size, f.price])).toEqual([
      [high.orderId!.toLowerCase(), '0.0005', '64000'],
    ]);
    // The same journal, for a venue without history reads (below).
    mkdirSync(join(dir, 'copy'));
    copyFileSync(join(dir, 'journal.sqlite'), join(dir, 'copy', 'journal.sqlite'));

    const run2 = await startJournalBot(sim, who, dir);
    await run2.stop();
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      expect(journal.fillsOfOrder(who.account, high.orderId!).map((f) => [f.source, ...row(f)])).toEqual(
        made.map((f) => ['history', ...row(f)]),
      );
      expect(journal.order(high.intentId)).toMatchObject({ state: 'filled', filledSize: '0.0005' });
      const start = journal.db
        .prepare("SELECT differences FROM reconciliations WHERE trigger = 'start' ORDER BY id DESC LIMIT 1")
        .get() as { differences: string };
      const differences = JSON.parse(start.differences) as Difference[];
      expect(differences).toEqual([
        expect.objectContaining({
          type: 'order_closed',
          intentId: high.intentId,
          state: 'filled',
          reason: expect.stringMatching(
            /^order history: order 0x[0-9a-f]+ FILLED, filled 0.0005 of 0.0005 at avg 64000$/,
          ),
        }),
        {
          type: 'fill_recovered',
          fillId: made[0]!.id,
          orderId: made[0]!.order_id,
          intentId: high.intentId,
          marketId: 1,
          side: 'buy',
          size: '0.0005',
          price: '64000',
          fee: made[0]!.fee,
        },
      ]);
    } finally {
      journal.close();
    }

    // A venue that answers 404 for the history endpoints: the same start infers the fill from the
    // position, with the order's price and no fee, and says so.
    const copy = openJournal(join(dir, 'copy', 'journal.sqlite'));
    try {
      const missing = (endpoint: string) => () =>
        Promise.reject(
          new VenueError({
            httpStatus: 404,
            rawBody: JSON.stringify({ error: { code: 'NotFound', message: 'NotFound: no such route' } }),
            endpoint,
          }),
        );
      const rest = {
        ...who.rest,
        tradeHistory: missing('GET /v1/trade-history'),
        orderHistory: missing('GET /v1/orders'),
      };
      const report = await reconcileWithVenue({
        journal: copy,
        rest,
        account: who.account,
        markets: [1],
        clock: systemClock,
        trigger: 'start',
        currentRunId: 'fallback',
        unknownOrders: 'leave',
        apply: true,
      });
      expect(report.historyUnavailable).toMatch(/HTTP 404/);
      expect(report.differences).toEqual([
        expect.objectContaining({
          type: 'fill_inferred',
          orderId: high.orderId,
          size: '0.0005',
          price: '64000',
          reason: expect.stringMatching(/^inferred: history unavailable/),
        }),
        expect.objectContaining({
          type: 'order_closed',
          state: 'filled',
          reason: expect.stringMatching(
            /^inferred: history unavailable \(.*HTTP 404.*\): the position moved by exactly its remainder$/,
          ),
        }),
      ]);
      expect(copy.fillsOfOrder(who.account, high.orderId!).map((f) => [f.source, f.fillId, f.fee])).toEqual([
        ['reconciled', `reconciled:${high.orderId!.toLowerCase()}`, undefined],
      ]);
    } finally {
      copy.close();
    }
  }, 60_000);
});
