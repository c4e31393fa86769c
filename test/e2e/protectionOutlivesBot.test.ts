import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, multiplyDecimals, negateDecimal } from '../../src/core/decimal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { roundToTick } from '../../src/strategy/marketGridMath.js';
import { readAllTpslOrders } from '../../src/venue/rest/tpslPages.js';
import type { TpslOrderRecord } from '../../src/venue/schemas/restTpsl.js';
import { testKeys } from '../runtime/cli/cliTestSupport.js';
import { until } from './support/journalBot.js';
import {
  activeTpsl,
  signedPosition,
  startExternalSim,
  stopGracefully,
  writeProtectedMakerConfig,
} from './support/protectionBot.js';
import { REPO_ROOT, spawnPerpbot, startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * The headline of protection: the venue's stop-loss keeps protecting the position while the bot
 * is dead. The bundled market maker with `protection: {stop_loss_bps: 50}` on an external
 * `perpbot sim --admin`; once it holds a position the venue holds a stop of its size; the bot is
 * killed with SIGKILL; the test moves the mark through the stop; the venue closes the position
 * with nobody running; a new `perpbot start` reads the stop and its fill back and gives the fill
 * to the strategy; `perpbot reconcile` finds no difference and `perpbot history` counts it.
 */
// Market 1's size step on the simulator: an open order's size_steps times this is its size.
const MARKET_1_STEP = '0.00001';
/** Moves of the mark toward the max inventory, in the whole test: 10 bps each, well inside the stop's 50. */
const NUDGES = 3;

describe('a stop-loss outlives the bot (perpbot sim --admin and perpbot start spawned)', () => {
  const running: RunningPerpbot[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-protect-'));
  afterAll(async () => {
    for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await Promise.all(running.map((r) => r.exited));
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes the position on the venue while the bot is dead; the restart attributes the fill to the strategy', async () => {
    // No registration lag: the default 2 s held setup 3.5 s in its retries, which this test is not about.
    const sim = await startExternalSim([
      '--admin',
      '--block-ms',
      '100',
      '--tpsl-lag-ms',
      '200',
      '--registration-lag-ms',
      '0',
    ]);
    running.push(sim.run);
    const keys = testKeys();
    const account = keys.account.address;
    const config = writeProtectedMakerConfig(dir, sim, '{ stop_loss_bps: 50 }', 'control: { port: 0 }');
    // setup funds the account, registers the signer and, for a config with protection:, grants the
    // OperatorHub the budget the venue pays the stop's execution from.
    const setup = await spawnPerpbot(['setup', '--config', config, '--budget', '100000'], keys.env, 90_000);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stdout).toMatch(/operator hub 0x[0-9a-fA-F]{40} approved for 100000 USD/);

    const startBot = async (what: string): Promise<RunningPerpbot> => {
      const bot = startPerpbotIn(['start', '--config', config], REPO_ROOT, keys.env);
      running.push(bot);
      await until(() => bot.output().includes('"msg":"bot running"'), 90_000).catch((e: unknown) => {
        throw new Error(`${what} did not start: ${bot.output().slice(-3000)}`, { cause: e });
      });
      return bot;
    };
    const first = await startBot('the bot');

    // A position at or past its max inventory (0.0015: more than its one quote), so the maker quotes only the side that reduces
    // it, its resting quotes together smaller than the position (the simulator's taker may fill them while the bot is dead,
    // which must reduce the position the stop protects, never close or flip it), and the venue's list holding one
    // stop-loss of exactly its size on the closing side: the state read, or undefined.
    const protectedState = async (): Promise<{ stop: TpslOrderRecord; held: string; long: boolean } | undefined> => {
      const held = await signedPosition(sim.rest, account);
      if (held === '0') return undefined;
      const long = !held.startsWith('-');
      const size = long ? held : negateDecimal(held);
      const open = (await sim.rest.openOrders({ account, market_id: '1' })).orders;
      const stops = await activeTpsl(sim.rest, account);
      const quoted = multiplyDecimals(String(open.reduce((n, o) => n + o.size_steps, 0)), MARKET_1_STEP);
      const [stop] = stops;
      const protects =
        compareDecimals(size, '0.0015') >= 0 &&
        open.every((o) => o.side === (long ? 1 : 0)) &&
        compareDecimals(quoted, size) < 0 &&
        stops.length === 1 &&
        stop?.stop_type === 'STOP_LOSS' &&
        stop.side === (long ? 'SELL' : 'BUY') &&
        compareDecimals(stop.size, size) === 0;
      return protects ? { stop, held, long } : undefined;
    };
    // The position reaches the max inventory when the simulator's taker happens to hit the same side
    // twice, which took from 10 s to over 100 s. So while it is short of the max, the mark is moved
    // 10 bps the way that grows it, at most NUDGES times in the whole test (far from the stop's 50 bps
    // beyond the entry): the makers' fresh quotes around the new mark fill the quote the bot left on
    // that side (the simulator's makers are plain GTC limits), as a real market moving would.
    let nudges = 0;
    let lastNudge = 0;
    const nudgeTowardMax = async (): Promise<void> => {
      if (nudges >= NUDGES || Date.now() - lastNudge < 2_000) return;
      const held = await signedPosition(sim.rest, account);
      const long = held !== '0' && !held.startsWith('-');
      if (compareDecimals(long || held === '0' ? held : negateDecimal(held), '0.0015') >= 0) return;
      // Only with the bot's quote resting on the side the move fills (a buy when long, else a sell).
      const open = (await sim.rest.openOrders({ account, market_id: '1' })).orders;
      if (!open.some((o) => o.side === (long ? 0 : 1))) return;
      const market = (await sim.rest.markets()).markets.find((m) => Number(m.market_id) === 1);
      if (market === undefined) return;
      // Long: down, so the bot's bid is above the makers' asks; short or flat: up, through its ask.
      const price = roundToTick(
        multiplyDecimals(market.mark_price, long ? '0.999' : '1.001'),
        market.config.step_price,
        long ? 'down' : 'up',
      );
      await fetch(`${sim.restUrl}/_sim/mark`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ market_id: 1, price }),
      });
      nudges++;
      lastNudge = Date.now();
    };
    const protectedAtMax = (bot: RunningPerpbot): Promise<void> =>
      until(async () => {
        if ((await protectedState()) !== undefined) return true;
        await nudgeTowardMax();
        return false;
      }, 150_000).catch((e: unknown) => {
        throw new Error(`no protected position (${nudges} nudges of the mark): ${bot.output().slice(-3000)}`, {
          cause: e,
        });
      });
    await protectedAtMax(first);
    // perpbot status shows the protection the running bot keeps: a stop of the position it shows
    // (the maker still trades its reducing side, so a snapshot taken mid-resize is read again).
    let shown: { stop: string | undefined; position: string | undefined; out: string } = {
      stop: undefined,
      position: undefined,
      out: '',
    };
    for (let i = 0; i < 5 && (shown.stop === undefined || shown.stop !== shown.position); i++) {
      const out = (await spawnPerpbot(['status', '--config', config], keys.env, 60_000)).stdout;
      shown = {
        out,
        stop: /protect {2}market-maker market 1: protected: stop_loss (?:SELL|BUY) ([\d.]+) @ [\d.]+ on mark \(accepted\)/.exec(
          out,
        )?.[1],
        position: /^1 +(?:buy|sell) +-?([\d.]+) /m.exec(out)?.[1],
      };
    }
    expect(shown.stop, shown.out).toBe(shown.position);
    // setup journaled the allowance: enough for the stop, far from expiring.
    expect(shown.out).not.toContain('TP/SL budget');

    // Killed with SIGKILL once it holds a protected position again. The maker trades on between that read and the kill,
    // so what the kill left is read again: a kill that landed mid-requote (a quote that could close or grow the position,
    // a stop not yet resized) starts the bot again and kills it once more, as an operator would.
    let bot = first;
    let dead: Awaited<ReturnType<typeof protectedState>>;
    for (let attempt = 1; dead === undefined; attempt++) {
      if (attempt > 1) bot = await startBot(`start ${attempt}`);
      await protectedAtMax(bot);
      bot.child.kill('SIGKILL');
      await bot.exited;
      dead = await protectedState();
      if (dead === undefined && attempt === 4)
        throw new Error('four kills, each mid-requote: no protected position left');
    }
    // The bot is gone; its stop is not: one stop-loss of the position's size.
    const { stop, long } = dead;

    // The mark through the stop (2% beyond it): the venue triggers it and closes the position.
    const through = multiplyDecimals(stop.stop_price, long ? '0.98' : '1.02');
    const moved = await fetch(`${sim.restUrl}/_sim/mark`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ market_id: 1, price: through }),
    });
    expect(moved.status).toBe(200);
    await until(async () => (await signedPosition(sim.rest, account)) === '0', 30_000);
    const executed = (await readAllTpslOrders(sim.rest, { account })).orders.find((o) => o.order_id === stop.order_id);
    expect(executed).toMatchObject({ status: 'TPSL_ORDER_STATUS_SUCCESS' });
    const closed = executed?.filled_size ?? '';
    expect(compareDecimals(closed, '0')).toBe(1);

    // A new start reads the stop and its fill back and gives the fill to the strategy.
    const second = await startBot('the restart');
    expect(second.output()).toMatch(
      /stop-loss executed on the venue while the bot was away: its fill goes to market-maker/,
    );
    await stopGracefully(second);

    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      const row = journal.db.prepare('SELECT * FROM tpsl_orders WHERE venue_id = ?').get(stop.order_id) as
        { id: string; state: string; strategy: string } | undefined;
      expect(row).toMatchObject({ state: 'executed', strategy: 'market-maker' });
      const execution = journal.orderByOrderId(
        (
          journal.db.prepare('SELECT order_id FROM orders WHERE intent_id = ?').get(`${row?.id}.execution`) as {
            order_id: string;
          }
        ).order_id,
      );
      expect(execution).toMatchObject({ strategy: 'market-maker', state: 'filled', side: long ? 'sell' : 'buy' });
      const fills = journal.db
        .prepare('SELECT strategy, size, source FROM fills WHERE order_id = ?')
        .all(execution?.orderId ?? '') as { strategy: string; size: string; source: string }[];
      expect(fills.map((f) => f.strategy)).toEqual(fills.map(() => 'market-maker'));
      expect(fills.map((f) => f.size).reduce((a, b) => addDecimals(a, b), '0')).toBe(closed);
    } finally {
      journal.close();
    }

    const reconcile = await spawnPerpbot(['reconcile', '--config', config], keys.env, 90_000);
    expect(reconcile.stdout + reconcile.stderr).toContain('no differences: the journal matches the venue');
    expect(reconcile.code).toBe(0);

    const history = await spawnPerpbot(
      ['history', '--config', config, '--json', '--limit', '100000'],
      keys.env,
      60_000,
    );
    expect(history.code, history.stderr).toBe(0);
    const parsed = JSON.parse(history.stdout) as {
      fills: { orderId: string; strategy?: string }[];
      pnl: { strategy: string; fills: number }[];
    };
    // Every fill is the strategy's, the stop's among them: its PnL counts it (all fills listed: the default
    // list is the last 20, and a slow machine lets the maker fill more than that before the kill).
    expect(parsed.pnl.map((p) => p.strategy)).toEqual(['market-maker']);
    expect(parsed.pnl[0]?.fills).toBe(parsed.fills.length);
    await stopGracefully(sim.run);
  }, 420_000);
});
