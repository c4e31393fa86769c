import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { memoryIo } from '../runtime/cli/cliTestSupport.js';
import { until } from './support/journalBot.js';
import { CONTROL_TOKEN, serviceBotConfig, startServiceBot } from './support/serviceBot.js';
import { startCounterparty } from './support/counterparty.js';
import { fundedAccount } from './support/simAccount.js';

const BID = { price: '64400', size: '0.0005' };
/** The reads a reconciliation makes of what the venue holds: each must be made once per reconnect. */
const STATE_READS = ['GET /v1/orders/open', 'GET /v1/account/position', 'GET /v1/account/cross-margin-balance'];

/** Another account of the simulator, which sells into the bot's bid while the bot cannot see it. */
async function taker(sim: RunningSim): Promise<(size: string, price: string) => Promise<void>> {
  const { engine } = await startCounterparty(sim);
  let n = 0;
  return async (size, price) => {
    const intent = { intentId: `sell-${++n}`, strategy: 'x', marketId: 1, side: 'sell' as const, size, price };
    const outcome = await engine.execute(placeLimit({ ...intent, timeInForce: 'IOC' }));
    expect(outcome.type).toBe('accepted');
  };
}

describe('after a WebSocket drop with a fill in the gap', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-one-read-'));
    mkdirSync(join(dir, 'strategies'));
    const target = new URL('./support/orderViewStrategy.ts', import.meta.url).pathname;
    writeFileSync(join(dir, 'strategies', 'orderView.ts'), `export { default } from ${JSON.stringify(target)};\n`);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads open orders, positions and balance once, and every view agrees the order filled', async () => {
    const who = await fundedAccount(sim);
    const sell = await taker(sim);
    const strategies = `  - name: view
    module: strategies/orderView.ts
    markets: [1]
    params: { price: "${BID.price}", size: "${BID.size}" }`;
    const config = serviceBotConfig(dir, strategies);
    const bot = await startServiceBot(sim, who, dir, config);
    const api = async (path: string) =>
      (await (
        await fetch(`${bot.url}${path}`, { headers: { authorization: `Bearer ${CONTROL_TOKEN}` } })
      ).json()) as Record<string, unknown>;
    try {
      await until(() => bot.engine.tracker.openOrders({ strategy: 'view' }).some((o) => o.state === 'open'));
      await until(() => bot.lines.some((l) => l.includes('"status":"authenticated"')));
      const bid = bot.engine.tracker.openOrders({ strategy: 'view' })[0]!;

      // The bot stops hearing the venue, the bid fills, then the connection drops and comes back.
      const since = sim.runtime.clock.now();
      sim.controls.stallStreams(true);
      await sell(BID.size, BID.price);
      sim.controls.dropWebSockets();
      sim.controls.stallStreams(false);
      const journal = openJournal(bot.journal, { readonly: true });
      try {
        await until(
          () =>
            (
              journal.db.prepare("SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = 'reconnect'").get() as {
                n: number;
              }
            ).n > 0,
          15_000,
        );
        const counts = sim.runtime.requestLog.counts(since);
        expect(Object.fromEntries(STATE_READS.map((r) => [r, counts.get(r) ?? 0]))).toEqual(
          Object.fromEntries(STATE_READS.map((r) => [r, 1])),
        );

        // The journal, the strategy's own view, /api/status and perpbot history: filled, all of them.
        expect(journal.order(bid.intentId)?.state).toBe('filled');
        await until(() => bot.lines.some((l) => l.includes('"event":"filled"')));
        const seen = bot.lines.filter((l) => l.includes('order event seen by the strategy'));
        expect(seen.map((l) => (JSON.parse(l) as { event: string }).event)).toEqual([
          'queued',
          'submitted',
          'placed',
          'filled',
        ]);
        await until(() => bot.lines.at(-1) !== undefined && lastView(bot.lines)?.position === BID.size);
        expect(lastView(bot.lines)).toEqual({ open: [], position: BID.size });
        const status = await api('/api/status');
        expect(status['openOrders']).toEqual([]);
        const history = memoryIo({ cwd: dir, env: { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN } });
        writeFileSync(join(dir, 'perpbot.yaml'), config);
        expect(await runCli(['history', '--config', join(dir, 'perpbot.yaml'), '--json'], history.io)).toBe(0);
        const orders = (JSON.parse(history.stdout()) as { orders: { intentId: string; state: string }[] }).orders;
        expect(orders.find((o) => o.intentId === bid.intentId)?.state).toBe('filled');
        expect(bot.lines.filter((l) => l.includes('already cancelled'))).toEqual([]);
      } finally {
        journal.close();
      }
    } finally {
      await bot.stop();
    }
  }, 40_000);
});

/** The strategy's latest view of its open orders and position. */
function lastView(lines: readonly string[]): { open: string[]; position: string } | undefined {
  const line = lines.filter((l) => l.includes('open orders seen by the strategy')).at(-1);
  if (line === undefined) return undefined;
  const { open, position } = JSON.parse(line) as { open: string[]; position: string };
  return { open, position };
}
