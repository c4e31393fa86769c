import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { startBotOnSim, until, type JournalBot } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';

describe('one admission pipeline, on the simulator', () => {
  let sim: RunningSim;
  let dir: string;
  let bot: JournalBot | undefined;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-fails-closed-'));
    mkdirSync(join(dir, 'strategies'));
    const target = new URL('./support/malformedIntentStrategy.ts', import.meta.url).pathname;
    writeFileSync(join(dir, 'strategies', 'malformed.ts'), `export { default } from ${JSON.stringify(target)};\n`);
  });
  afterEach(async () => {
    await bot?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a malformed intent is refused by the engine's pre-trade checks before its budget judges it, and nothing reaches the venue", async () => {
    const who = await fundedAccount(sim);
    const config = `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk: { max_order_notional: "100000", max_position_per_market: "1000000", max_open_orders: 50, max_actions_per_second: 200, kill_switch: { max_loss: "1000" } }
strategies:
  - { name: bad, module: strategies/malformed.ts, markets: [1], risk: { max_order_notional: "500" } }
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }
`;
    bot = await startBotOnSim(sim, who, config, dir);
    const refusals = () =>
      bot!.lines
        .map((l) => JSON.parse(l) as { msg: string; rule?: string; code?: string; reason?: string; strategy?: string })
        .filter((l) => l.msg === 'intent refused');
    await until(() => refusals().length > 0);
    // Checks, then the strategy's budget: the budget (whose notional check would throw on this
    // size) never sees it. Budget checks that throw are refused `guard_error` (strategyBudgets.test.ts).
    expect(refusals()).toEqual([
      expect.objectContaining({ strategy: 'bad', rule: 'size', code: 'SIZE', value: 'abc' }),
    ]);
    // The engine owns the intent (journaled as received) and sent nothing.
    const journal = new Database(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      expect(journal.prepare("SELECT COUNT(*) AS n FROM intents WHERE strategy = 'bad'").get()).toEqual({ n: 1 });
      expect(journal.prepare('SELECT COUNT(*) AS n FROM requests').get()).toEqual({ n: 0 });
    } finally {
      journal.close();
    }
    const open = await who.rest.openOrders({ account: who.account, market_id: '1' });
    expect(open.orders).toEqual([]);
  });
});
