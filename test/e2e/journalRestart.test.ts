import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { cancel, placeLimit, placeMarket, setMarginMode } from '../../src/engine/intents/intentBuilders.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { reconcileWithVenue } from '../../src/journal/reconcileWithVenue.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { placedState } from './support/journalProbeStrategy.js';
import { prepareProbeRoot, startJournalBot, until } from './support/journalBot.js';
import { sellInto, startCounterparty } from './support/counterparty.js';
import { fundedAccount } from './support/simAccount.js';

describe('journal across a restart (runBot on the simulator)', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    // No blocks: no synthetic liquidity and no oracle walk, so every fill here is one the test made.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-e2e-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes resting orders and the position, places nothing twice, and journals a fill made while down once', async () => {
    const bot = await fundedAccount(sim);
    const other = await startCounterparty(sim);

    // Run 1: the probe rests two bids; the bot also opens a long position.
    const run1 = await startJournalBot(sim, bot, dir);
    await until(
      () => run1.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
    );
    expect(
      (
        await other.engine.execute(
          placeLimit({
            intentId: 'ask',
            strategy: 'x',
            marketId: 1,
            side: 'sell',
            size: '0.001',
            price: '65010',
            postOnly: true,
          }),
        )
      ).type,
    ).toBe('accepted');
    expect(
      (
        await run1.engine.execute(
          placeMarket({ intentId: 'open-long', strategy: 'manual', marketId: 1, side: 'buy', size: '0.001' }),
        )
      ).type,
    ).toBe('accepted');
    await until(() => run1.engine.tracker.position(1)?.size === '0.001');
    const [high, low] = ['64000', '63000'].map((price) =>
      run1.engine.tracker.openOrders({ strategy: 'probe' }).find((o) => o.price === price)!,
    );

    await run1.stop();

    // While the bot is down, the counterparty sells into the 64000 bid.
    const hit = await sellInto(other.engine);
    expect(hit.type).toBe('accepted');
    expect((await bot.rest.position({ account: bot.account, market_id: '1' })).size).toBe('0.0015');

    // Run 2 resumes.
    const run2 = await startJournalBot(sim, bot, dir);
    try {
      const restored = run2.engine.tracker.openOrders({ strategy: 'probe' });
      expect(restored.map((o) => [o.intentId, o.orderId, o.state])).toEqual([[low!.intentId, low!.orderId, 'open']]);
      const venueOpen = (await bot.rest.openOrders({ account: bot.account, market_id: '1' })).orders;
      expect(venueOpen.map((o) => o.order_id)).toEqual([low!.orderId]);
      expect(run2.engine.tracker.position(1)).toMatchObject({ side: 'buy', size: '0.0015' });

      const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
      try {
        expect(journal.order(high!.intentId)).toMatchObject({ state: 'filled', filledSize: '0.0005' });
        // Read from the venue's trade history at the start: its real id, price and fee, not inferred.
        const venueFills = (await bot.rest.tradeHistory({ account: bot.account })).trades.filter(
          (t) => t.order_id.toLowerCase() === high!.orderId!.toLowerCase(),
        );
        expect(venueFills.map((t) => [t.size, t.price])).toEqual([['0.0005', '64000']]);
        expect(
          journal.fillsOfOrder(bot.account, high!.orderId!).map((f) => [f.source, f.fillId, f.size, f.price, f.fee]),
        ).toEqual(venueFills.map((t) => ['history', t.id, t.size, t.price, t.fee]));
        expect(journal.loadStrategyState(bot.account, 'probe', 'placed')).toBeDefined();
        expect(placedState.parse(JSON.parse(journal.loadStrategyState(bot.account, 'probe', 'placed')!)).starts).toBe(
          2,
        );
      } finally {
        journal.close();
      }

      const switched = await run2.engine.execute(
        setMarginMode({ intentId: 'to-isolated', strategy: 'manual', marketId: 1, marginMode: 'isolated' }),
      );
      expect(switched.type === 'refused' ? switched.refusal.rule : switched.type).toBe('margin_mode_open_position');
      const cancelled = await run2.engine.execute(
        cancel({ intentId: 'cancel-low', strategy: 'probe', marketId: 1, target: { intentId: low!.intentId } }),
      );
      expect(cancelled.type).toBe('accepted');
    } finally {
      await run2.stop();
    }

    // Reconciling again finds nothing new: the fill made while down stays journaled once.
    const journal = openJournal(join(dir, 'journal.sqlite'));
    try {
      const report = await reconcileWithVenue({
        journal,
        rest: bot.rest,
        account: bot.account,
        markets: [1],
        clock: systemClock,
        trigger: 'cli',
        unknownOrders: 'leave',
        apply: true,
      });
      expect(report.differences.filter((d) => d.type !== 'in_flight_resolved')).toEqual([]);
      expect(journal.fillsOfOrder(bot.account, high!.orderId!)).toHaveLength(1);
      expect(journal.order(low!.intentId)?.state).toBe('cancelled');
    } finally {
      journal.close();
    }
  }, 30_000);
});
