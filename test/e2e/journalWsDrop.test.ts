import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, negateDecimal } from '../../src/core/decimal.js';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { prepareProbeRoot, startJournalBot, until } from './support/journalBot.js';
import { startCounterparty } from './support/counterparty.js';
import { fundedAccount } from './support/simAccount.js';

describe('journal across a WebSocket drop during fills', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-ws-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no fill and doubles none', async () => {
    const bot = await fundedAccount(sim);
    const { engine: other } = await startCounterparty(sim);
    let n = 0;
    const sell = async (size: string, price: string) => {
      const outcome = await other.execute(
        placeLimit({
          intentId: `sell-${++n}`,
          strategy: 'x',
          marketId: 1,
          side: 'sell',
          size,
          price,
          timeInForce: 'IOC',
        }),
      );
      expect(outcome.type).toBe('accepted');
    };

    const run = await startJournalBot(sim, bot, dir);
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      await until(
        () => run.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
      );
      const bids = await Promise.all(
        ['64100', '64200', '64300', '64400'].map((price, i) =>
          run.engine.execute(
            placeLimit({
              intentId: `bid-${i}`,
              strategy: 'manual',
              marketId: 1,
              side: 'buy',
              size: '0.0005',
              price,
              postOnly: true,
            }),
          ),
        ),
      );
      expect(bids.map((b) => b.type)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
      await until(() => run.lines.some((l) => l.includes('"status":"authenticated"')));

      // Connected: the fill arrives on the fills channel.
      await sell('0.0005', '64400');
      await until(() => journal.recentFills(10).length === 1);

      // Frames discarded, then the connection drops: these two fills never reach the bot.
      sim.controls.stallStreams(true);
      await sell('0.001', '64200');
      sim.controls.dropWebSockets();
      sim.controls.stallStreams(false);
      await until(
        () =>
          (
            journal.db.prepare("SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = 'reconnect'").get() as {
              n: number;
            }
          ).n > 0,
        15_000,
      );

      // Reconnected: a partial fill arrives on the channel again.
      await sell('0.00025', '64100');
      await until(() => journal.recentFills(10).some((f) => f.size === '0.00025'));

      const fills = journal.recentFills(100);
      const byOrder = new Map<string, string>();
      let signed = '0';
      for (const f of fills) {
        byOrder.set(f.orderId, addDecimals(byOrder.get(f.orderId) ?? '0', f.size));
        signed = addDecimals(signed, f.side === 'sell' ? negateDecimal(f.size) : f.size);
      }
      const venue = await bot.rest.position({ account: bot.account, market_id: '1' });
      expect(venue.size).toBe('0.00175');
      expect(compareDecimals(signed, venue.size!)).toBe(0);
      const filledOf = (intentId: string) => byOrder.get(journal.order(intentId)!.orderId!);
      expect([filledOf('bid-0'), filledOf('bid-1'), filledOf('bid-2'), filledOf('bid-3')]).toEqual([
        '0.00025',
        '0.0005',
        '0.0005',
        '0.0005',
      ]);
      // The two the channel missed came from the venue's trade history, with their real ids and fees.
      expect(
        fills
          .filter((f) => f.source === 'history')
          .map((f) => f.orderId)
          .sort(),
      ).toEqual([journal.order('bid-1')!.orderId, journal.order('bid-2')!.orderId].sort());
      const venueFills = (await bot.rest.tradeHistory({ account: bot.account })).trades;
      const key = (f: { id: string; size: string; price: string; fee: string }) =>
        [f.id, f.size, f.price, f.fee].join('|');
      expect(fills.map((f) => key({ id: f.fillId, size: f.size, price: f.price, fee: f.fee ?? '' })).sort()).toEqual(
        venueFills.map(key).sort(),
      );
      expect(journal.order('bid-1')?.state).toBe('filled');
      expect(journal.order('bid-2')?.state).toBe('filled');
      // The engine's model says what the journal says (the order history, read at the reconnect),
      // so a cancel sent now is told the order filled, never that it was cancelled.
      expect(run.engine.tracker.order('bid-1')?.state).toBe('filled');
      expect(run.engine.tracker.order('bid-2')?.state).toBe('filled');
      const late = await run.engine.execute(
        cancel({ intentId: 'late-cancel', strategy: 'manual', marketId: 1, target: { intentId: 'bid-1' } }),
      );
      expect(late).toMatchObject({ type: 'refused', refusal: { rule: 'cancel_target_finished' } });
      expect(late.type === 'refused' && late.refusal.reason).toBe('the order is already filled');
      expect(run.lines.filter((l) => l.includes('already cancelled'))).toEqual([]);
    } finally {
      journal.close();
      await run.stop();
    }
  }, 40_000);
});
