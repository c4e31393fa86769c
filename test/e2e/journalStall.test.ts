import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { sellInto, startCounterparty } from './support/counterparty.js';
import { prepareProbeRoot, startJournalBot, until, type JournalBot } from './support/journalBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/** The probe's two bids rest and the private feeds are authenticated. */
async function probeQuoting(run: JournalBot): Promise<void> {
  await until(
    () => run.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open').length === 2,
  );
  await until(() => run.lines.some((l) => l.includes('"status":"authenticated"')));
}

async function blocksMined(venue: RunningSim, count: number): Promise<void> {
  const from = venue.context.chain.blockNumber;
  await until(() => venue.context.chain.blockNumber >= from + count);
}

function reconciliations(journal: Journal, trigger: string): number {
  const row = journal.db.prepare('SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = ?').get(trigger);
  return (row as { n: number }).n;
}

/**
 * With no oracle frame on the bot's connection yet, a stall loses the fill of a sell into its bid;
 * the venue's fill, the journal still without it.
 */
async function fillLostBeforeFirstOracleFrame(
  venue: RunningSim,
  rig: { bot: SimAccount; other: Engine; journal: Journal },
) {
  venue.controls.stallStreams(true);
  expect((await sellInto(rig.other)).type).toBe('accepted');
  venue.controls.stallStreams(false);
  const venueFills = (await rig.bot.rest.tradeHistory({ account: rig.bot.account })).trades;
  expect(venueFills).toHaveLength(1);
  expect(rig.journal.recentFills(10)).toEqual([]);
  return venueFills[0]!;
}

/** Once the connection's first oracle frame comes: the fill journaled from history by a `stream_start` round. */
async function readBackAtFirstOracleFrame(venue: RunningSim, run: JournalBot, journal: Journal, fillId: string) {
  venue.controls.advanceBlocks(1);
  await until(() => journal.recentFills(10).length === 1, 20_000).catch((error: unknown) => {
    throw new Error(`${String(error)}\nthe bot's last lines:\n${run.lines.slice(-12).join('\n')}`);
  });
  expect(journal.recentFills(10).map((f) => [f.fillId, f.size, f.source])).toEqual([[fillId, '0.0005', 'history']]);
  expect(reconciliations(journal, 'stream_start')).toBe(1);
  await until(() => run.engine.tracker.openOrders({ strategy: 'probe' }).length === 1);
}

/**
 * A stream that stalls loses its frames (a stuck venue stream); the bot rides a short stall out
 * without reconnecting, so no reconnect's reconciliation reads back over it. The oracle's block
 * numbers show the loss once the stream resumes; a stop during the stall must still leave the
 * journal with every fill the venue made, since the run has no later chance.
 */
describe('journal across a stalled stream that lost a fill frame', () => {
  let sim: RunningSim | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-stall-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The probe bot, a counterparty and the journal read beside them, on a simulator mining a block
   * every `blockMs` (0: when the test says). No synthetic makers: the counterparty's sell meets the
   * probe's bid, not a maker's above it.
   */
  async function stallRig(blockMs: number) {
    const venue = await startSim({ port: 0, blockMs, registrationLagMs: 0, exchange: { makers: false } });
    sim = venue;
    const bot = await fundedAccount(venue);
    const { engine: other } = await startCounterparty(venue);
    const run = await startJournalBot(venue, bot, dir);
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    return { venue, bot, other, run, journal };
  }

  it('reads the lost fill from the venue once the stream resumes, without a reconnect', async () => {
    // Blocks every 100 ms: the oracle frames whose numbers show the loss.
    const { venue, bot, other, run, journal } = await stallRig(100);
    try {
      await probeQuoting(run);
      const connected = run.lines.filter((l) => l.includes('"status":"authenticated"')).length;
      // Blocks mined since the connection was authenticated: the bot has an oracle frame to count from.
      await blocksMined(venue, 2);

      venue.controls.stallStreams(true);
      expect((await sellInto(other)).type).toBe('accepted');
      await blocksMined(venue, 3);
      venue.controls.stallStreams(false);

      const venueFills = (await bot.rest.tradeHistory({ account: bot.account })).trades;
      expect(venueFills).toHaveLength(1);
      await until(() => journal.recentFills(10).length === 1, 20_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\nthe bot's last lines:\n${run.lines.slice(-12).join('\n')}`);
      });
      expect(journal.recentFills(10).map((f) => [f.fillId, f.size, f.source])).toEqual([
        [venueFills[0]!.id, '0.0005', 'history'],
      ]);
      expect(run.lines.some((l) => l.includes('the stream lost frames: no oracle frame for blocks'))).toBe(true);
      // Journaled as what it was, and the engine never left trading (intents waited for it).
      await until(() => reconciliations(journal, 'frames_lost') > 0);
      expect(run.lines.filter((l) => l.includes('trading degraded'))).toEqual([]);
      // The engine's model has the order filled, and no reconnect happened.
      await until(() => run.engine.tracker.openOrders({ strategy: 'probe' }).length === 1);
      expect(run.lines.filter((l) => l.includes('"status":"authenticated"')).length).toBe(connected);
    } finally {
      journal.close();
      await run.stop();
    }
  }, 40_000);

  it("reads back a fill lost in a stall that began before the new connection's first oracle frame", async () => {
    // Blocks only when the test mines them: the first oracle frame of a connection comes when it says.
    const { venue, bot, other, run, journal } = await stallRig(0);
    try {
      await probeQuoting(run);
      const authenticated = (): number => run.lines.filter((l) => l.includes('"status":"authenticated"')).length;
      const before = authenticated();
      venue.controls.dropAccountWebSockets(bot.account);
      await until(() => authenticated() > before && reconciliations(journal, 'reconnect') === 1);
      // The reconnect's round has read the venue; no oracle frame has come on the new connection yet.
      const lost = await fillLostBeforeFirstOracleFrame(venue, { bot, other, journal });
      // Its first oracle frame shows no gap (nothing before it to count from), but came after the read.
      await readBackAtFirstOracleFrame(venue, run, journal, lost.id);
    } finally {
      journal.close();
      await run.stop();
    }
  }, 40_000);

  it("reads back a fill lost before the first connection's first oracle frame, on a start that found orders resting", async () => {
    // Blocks only when the test mines them: the first oracle frame of a connection comes when it says.
    const { venue, bot, other, run: first, journal } = await stallRig(0);
    let second: JournalBot | undefined;
    try {
      await probeQuoting(first);
      // Stopped with its bids kept (shutdown.open_orders: keep): the next start reads them resting.
      await first.stop();
      second = await startJournalBot(venue, bot, dir);
      await probeQuoting(second);
      // Authenticated, and no oracle frame on this connection yet: a stall now loses what it carries unseen.
      const lost = await fillLostBeforeFirstOracleFrame(venue, { bot, other, journal });
      await readBackAtFirstOracleFrame(venue, second, journal, lost.id);
    } finally {
      journal.close();
      await (second ?? first).stop();
    }
  }, 40_000);

  it('holds at a stop the fill the stream never delivered, and the position the venue holds', async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    const bot = await fundedAccount(sim);
    const { engine: other } = await startCounterparty(sim);
    const run = await startJournalBot(sim, bot, dir);
    let stopped = false;
    try {
      await probeQuoting(run);

      // The frames of this fill are discarded: the bot hears nothing of it before it stops.
      sim.controls.stallStreams(true);
      expect((await sellInto(other)).type).toBe('accepted');
      const venueFills = (await bot.rest.tradeHistory({ account: bot.account })).trades;
      expect(venueFills).toHaveLength(1);
      expect(run.engine.tracker.openOrders({ strategy: 'probe' }).filter((o) => o.state === 'open')).toHaveLength(2);

      stopped = true;
      await run.stop();
    } finally {
      if (!stopped) await run.stop();
      sim.controls.stallStreams(false);
    }

    const venueFills = (await bot.rest.tradeHistory({ account: bot.account })).trades;
    const venuePosition = await bot.rest.position({ account: bot.account, market_id: '1' });
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      expect(journal.recentFills(10).map((f) => [f.fillId, f.size, f.price])).toEqual(
        venueFills.map((f) => [f.id, f.size, f.price]),
      );
      expect(reconciliations(journal, 'stop')).toBe(1);
      expect(venuePosition.size).toBe('0.0005');
      const row = journal.db
        .prepare('SELECT side, size FROM positions WHERE market_id = 1 ORDER BY id DESC LIMIT 1')
        .get() as { side: string; size: string } | undefined;
      expect(row).toEqual({ side: 'buy', size: '0.0005' });
      // The probe's order at 64000 is filled in the journal, not left resting.
      const filledOrder = venueFills[0]!.order_id.toLowerCase();
      expect(journal.liveOrders(bot.account).map((o) => o.orderId?.toLowerCase())).not.toContain(filledOrder);
    } finally {
      journal.close();
    }
  }, 40_000);
});
