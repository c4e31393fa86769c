import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { prepareProbeRoot, startJournalBot, until } from './support/journalBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';
import { engineOnSim } from './support/engineOnSim.js';

/** Places a resting bid for the account from outside the bot (no journal). */
async function foreignBid(who: SimAccount, price: string): Promise<string> {
  const engine = engineOnSim(who);
  await engine.start();
  const outcome = await engine.execute(
    placeLimit({
      intentId: 'foreign',
      strategy: 'elsewhere',
      marketId: 1,
      side: 'buy',
      size: '0.0002',
      price,
      postOnly: true,
    }),
  );
  await engine.stop();
  if (outcome.type !== 'accepted' || outcome.orderId === undefined)
    throw new Error(`foreign bid not placed: ${outcome.type}`);
  return outcome.orderId.toLowerCase();
}

describe('reconciliation at start (runBot)', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-start-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The differences the start reconciliation journaled. */
  const startDifferences = (): Record<string, unknown>[] => {
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      const row = journal.db
        .prepare("SELECT differences FROM reconciliations WHERE trigger = 'start' ORDER BY id DESC LIMIT 1")
        .get() as { differences: string };
      return JSON.parse(row.differences) as Record<string, unknown>[];
    } finally {
      journal.close();
    }
  };
  const openIds = async (who: SimAccount) =>
    (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders.map((o) => o.order_id.toLowerCase());

  it('cancels an order it does not know with unknown_orders: cancel', async () => {
    const who = await fundedAccount(sim);
    const foreign = await foreignBid(who, '60000');
    const bot = await startJournalBot(sim, who, dir, 'reconcile: { unknown_orders: cancel }');
    try {
      expect(await openIds(who)).not.toContain(foreign);
      expect(startDifferences()).toEqual([
        { type: 'unknown_open_order', orderId: foreign, marketId: 1, action: 'cancel' },
      ]);
    } finally {
      await bot.stop();
    }
  }, 30_000);

  it('hands an unknown order to the strategy of its market with unknown_orders: adopt', async () => {
    const who = await fundedAccount(sim);
    const foreign = await foreignBid(who, '60000');
    const bot = await startJournalBot(sim, who, dir, 'reconcile: { unknown_orders: adopt }');
    try {
      await until(() => bot.engine.tracker.openOrders({ strategy: 'probe' }).length === 3);
      const adopted = bot.engine.tracker.order(`adopted-${foreign}`);
      expect(adopted).toMatchObject({ strategy: 'probe', state: 'open', price: '60000', size: '0.0002', side: 'buy' });
      expect(bot.engine.tracker.foreignOrders()).toEqual([]);
      expect(await openIds(who)).toContain(foreign);
    } finally {
      await bot.stop();
    }
  }, 30_000);

  it('leaves an unknown order by default and reports it', async () => {
    const who = await fundedAccount(sim);
    const foreign = await foreignBid(who, '60000');
    const bot = await startJournalBot(sim, who, dir);
    try {
      expect(bot.engine.tracker.foreignOrders().map((f) => f.orderId)).toEqual([foreign]);
      expect(startDifferences()).toEqual([
        { type: 'unknown_open_order', orderId: foreign, marketId: 1, action: 'leave' },
      ]);
      expect(bot.lines.some((l) => l.includes('is open on the venue but not in the journal: leave'))).toBe(true);
    } finally {
      await bot.stop();
    }
  }, 30_000);

  it('marks an order cancelled outside the bot while it was down as cancelled, with no fill', async () => {
    const who = await fundedAccount(sim);
    const first = await startJournalBot(sim, who, dir);
    await until(
      () => first.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
    );
    const [high, low] = ['64000', '63000'].map((price) =>
      first.engine.tracker.openOrders({ strategy: 'probe' }).find((o) => o.price === price)!,
    );
    await first.stop();

    const outside = engineOnSim(who);
    await outside.start();
    expect(
      (
        await outside.execute(
          cancel({
            intentId: 'outside-cancel',
            strategy: 'elsewhere',
            marketId: 1,
            target: { orderId: high!.orderId! },
          }),
        )
      ).type,
    ).toBe('accepted');
    await outside.stop();

    const second = await startJournalBot(sim, who, dir);
    try {
      expect(second.engine.tracker.openOrders({ strategy: 'probe' }).map((o) => o.intentId)).toEqual([low!.intentId]);
      expect(startDifferences()).toEqual([
        expect.objectContaining({ type: 'order_closed', intentId: high!.intentId, state: 'cancelled' }),
      ]);
      const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
      try {
        expect(journal.order(high!.intentId)?.state).toBe('cancelled');
        expect(journal.recentFills(10)).toEqual([]);
        // The journal recorded what the order model made of "closed per order history", with that cause.
        const transitions = journal.db
          .prepare('SELECT state, source FROM order_states WHERE intent_id = ? ORDER BY id')
          .all(high!.intentId);
        expect(transitions.at(-1)).toEqual({ state: 'cancelled', source: 'order_history' });
      } finally {
        journal.close();
      }
    } finally {
      await second.stop();
    }
  }, 30_000);

  it('refuses to trade while a permit of a previous run could still land, and says why', async () => {
    const who = await fundedAccount(sim);
    const state = await who.rest.nonceState(who.account);
    const journal = openJournal(join(dir, 'journal.sqlite'));
    const intent = placeLimit({
      intentId: 'old-1',
      strategy: 'probe',
      marketId: 1,
      side: 'buy',
      size: '0.0002',
      price: '60000',
      clientOrderId: 42n,
    });
    journal.recordIntent(who.account, 'old-run', intent, Date.now());
    journal.recordOrder(
      who.account,
      {
        intentId: 'old-1',
        strategy: 'probe',
        marketId: 1,
        side: 'buy',
        size: '0.0002',
        price: '60000',
        clientOrderId: 42n,
        state: 'submitted',
        filledSize: '0',
      },
      'engine',
      Date.now(),
    );
    journal.recordNonce(who.account, 'old-run', { anchor: BigInt(state.nonce_anchor) + 1n, bit: 0 }, 'old-1');
    journal.recordRequest({
      intentId: 'old-1',
      endpoint: 'placeOrder',
      body: {
        client_order_id: '42',
        permit: {
          deadline: Math.floor(Date.now() / 1000) + 3600,
          nonce_anchor: String(BigInt(state.nonce_anchor) + 1n),
          nonce_bitmap_index: 0,
        },
      },
      nonce: { anchor: BigInt(state.nonce_anchor) + 1n, bit: 0 },
      attempt: 1,
      atMs: Date.now(),
    });
    journal.close();
    await expect(startJournalBot(sim, who, dir)).rejects.toMatchObject({
      code: 'RECONCILE_INCOMPLETE',
      message: expect.stringMatching(/refusing to trade/),
    });
    expect(await openIds(who)).toEqual([]);
  }, 30_000);
});
