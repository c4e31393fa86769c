import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/openJournal.js';
import type { Engine } from '../../src/engine/engine.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { startBotOnSim, until, type JournalBot } from './support/journalBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The example market maker and grid together on market 1, keeping their orders on shutdown. The
 * grid's ladder is off-centre (its levels 1 % and 3 % from the mark) so the level nearest the mark,
 * its gap, is the same in every run: a centred ladder has two levels equally near, and the gap
 * a run without saved state derives flips with the mark's smallest move.
 */
function configText(journalPath: string, mark: number): string {
  return `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk: { max_order_notional: "100000", max_position_per_market: "1000000", max_open_orders: 50, max_actions_per_second: 200, kill_switch: { max_loss: "1000" } }
strategies:
  - name: mm
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 200, requote_bps: 500, max_inventory: "0.01", skew_bps: 10 }
  - name: grid
    module: strategies/grid.ts
    markets: [1]
    params: { lower: "${(mark * 0.91).toFixed(1)}", upper: "${(mark * 1.11).toFixed(1)}", levels: 6, size: "0.0002" }
  - name: echo
    module: strategies/markEcho.ts
    markets: [1]
logging: { level: info, pretty: false }
shutdown: { open_orders: keep }
journal: { path: ${JSON.stringify(journalPath)} }
`;
}

type Run = JournalBot;

/** A strategies root in `dir`: the two examples and the mark echo, re-exported from the repository. */
function prepareRoot(dir: string): void {
  mkdirSync(join(dir, 'strategies'));
  const modules = {
    'marketMaker.ts': join(repoRoot, 'strategies', 'marketMaker.ts'),
    'grid.ts': join(repoRoot, 'strategies', 'grid.ts'),
    'markEcho.ts': fileURLToPath(new URL('./support/markEchoStrategy.ts', import.meta.url)),
  };
  for (const [name, target] of Object.entries(modules))
    writeFileSync(join(dir, 'strategies', name), `export { default } from ${JSON.stringify(target)};\n`);
}

const startRun = (sim: RunningSim, who: SimAccount, text: string, root: string): Promise<Run> =>
  startBotOnSim(sim, who, text, root);

describe('example strategies across a restart (runBot on the simulator)', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    // Blocks drive the marks both strategies quote from.
    sim = await startSim({ port: 0, blockMs: 100, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-strategy-restart-'));
    prepareRoot(dir);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('market maker and grid take over their resting orders: the count does not grow and no level is doubled', async () => {
    const who = await fundedAccount(sim);
    const mark = Number((await who.rest.markets()).markets.find((m) => m.market_id === '1')!.mark_price);
    const journalPath = join(dir, 'journal.sqlite');
    const text = configText(journalPath, mark);
    const venueOpen = async () => (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders;
    const resting = (engine: Engine, strategy: string) =>
      engine.tracker.openOrders({ strategy }).filter((o) => o.state === 'open');
    const firstMarkSeen = (run: Run) => run.lines.some((l) => l.includes('"msg":"grid placed"'));
    const marksSeen = (run: Run) => run.lines.filter((l) => l.includes('"msg":"mark seen"')).length;
    const expectNoDoubles = (orders: Awaited<ReturnType<typeof venueOpen>>) => {
      const keys = orders.map((o) => `${o.side}@${o.price_ticks}`);
      expect(new Set(keys).size).toBe(keys.length);
    };

    // Run 1: one bid and one ask; five grid orders (six levels, the one nearest the mark empty).
    const run1 = await startRun(sim, who, text, dir);
    await until(() => resting(run1.engine, 'mm').length === 2 && resting(run1.engine, 'grid').length === 5);
    await run1.stop();
    const before = (await venueOpen()).map((o) => o.order_id).sort();
    expect(before).toHaveLength(7);

    // Run 2 (shutdown kept the orders): both strategies resume them and place nothing.
    const run2 = await startRun(sim, who, text, dir);
    // A few marks handed to every strategy (the echo is handed each one beside them): the market
    // maker has seen its quotes still centred and left them.
    await until(() => firstMarkSeen(run2) && marksSeen(run2) >= 4);
    expect(run2.lines.filter((l) => l.includes('taken over')).length).toBe(2);
    await run2.stop();
    const afterRestart = await venueOpen();
    expect(afterRestart.map((o) => o.order_id).sort()).toEqual(before);
    expectNoDoubles(afterRestart);

    // Run 3 without saved strategy state (as after orders adopted at reconciliation): the market
    // maker's quote target judges the restored quotes by price, as every target does (still within
    // requote_bps: kept); the grid finds its levels by price. Nothing is placed or cancelled.
    const journal = openJournal(journalPath);
    journal.db.prepare('DELETE FROM strategy_state').run();
    journal.close();
    const run3 = await startRun(sim, who, text, dir);
    try {
      await until(() => firstMarkSeen(run3) && marksSeen(run3) >= 4);
      const afterReset = await venueOpen();
      expect(afterReset.map((o) => o.order_id).sort()).toEqual(before);
      expectNoDoubles(afterReset);
      const gridIds = resting(run3.engine, 'grid').map((o) => o.orderId);
      expect(gridIds.every((id) => id !== undefined && before.includes(id))).toBe(true);
      expect(gridIds).toHaveLength(5);
    } finally {
      await run3.stop();
    }
  }, 30_000);
});
