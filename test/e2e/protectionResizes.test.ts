import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countUnits, multiplyDecimals, multiplyUnits } from '../../src/core/decimal.js';
import type { Engine } from '../../src/engine/engine.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { openJournal } from '../../src/runtime/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import type { TpslOrderRecord } from '../../src/venue/schemas/restTpsl.js';
import { engineOnSim } from './support/engineOnSim.js';
import { startBotOnSim, until, type JournalBot } from './support/journalBot.js';
import { activeTpsl, signedPosition } from './support/protectionBot.js';
import { fundedAccount, grantAllowance, type SimAccount } from './support/simAccount.js';

const BLOCK_MS = 1000;

/**
 * The keeper keeps the venue's TP/SL equal to the position as it changes: a partial fill, an add
 * and a reduce each resize the stop within one block of the fill, a flat position leaves no TP/SL
 * on the venue, and a take-profit that executes takes its stop-loss with it. The whole bot
 * (runBot) on the simulator over HTTP and WebSocket; a second account takes the other side.
 */
describe('protection follows the position (runBot on the simulator)', () => {
  let sim: RunningSim;
  let dir: string;
  let who: SimAccount;
  let taker: Engine;
  let bot: JournalBot | undefined;
  let seq = 0;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-protect-resize-'));
    mkdirSync(join(dir, 'strategies'), { recursive: true });
    const target = new URL('./support/restingProbeStrategy.ts', import.meta.url).pathname;
    writeFileSync(join(dir, 'strategies', 'restingProbe.ts'), `export { default } from ${JSON.stringify(target)};\n`);
  });

  /** The simulator; `quiet`: no synthetic liquidity and a still oracle, so only the taker meets the bot's orders. */
  async function start(quiet: boolean): Promise<void> {
    sim = await startSim({
      port: 0,
      blockMs: BLOCK_MS,
      registrationLagMs: 0,
      tpslLagMs: 100,
      restRequestsPer10s: 100_000,
      ...(quiet ? { exchange: { makers: false, oracleVolatilityPpm: 0 } } : {}),
    });
    who = await fundedAccount(sim);
    await grantAllowance(who, 1_000_000n);
    const other = await fundedAccount(sim);
    taker = engineOnSim(other);
    await taker.start();
  }

  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await taker.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startProtected(params: string, protection: string): Promise<void> {
    bot = await startBotOnSim(
      sim,
      who,
      `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk: { max_order_notional: "1000000", max_position_per_market: "10000000", max_open_orders: 50, kill_switch: { max_loss: "100000" } }
strategies:
  - name: probe
    module: strategies/restingProbe.ts
    markets: [1]
    params: ${params}
    protection: ${protection}
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }
protection: { venue_read_ms: 500 }
`,
      dir,
    );
    await until(
      async () => (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders.length > 0,
      20_000,
    );
  }

  async function grid(): Promise<{ mark: string; tick: string }> {
    const market = (await who.rest.markets()).markets.find((m) => Number(m.market_id) === 1);
    if (market === undefined) throw new Error('no market 1');
    return { mark: market.mark_price, tick: market.config.step_price };
  }

  function onGrid(price: string, tick: string, rounding: 'down' | 'up' = 'down'): string {
    return multiplyUnits(countUnits(price, tick, 'price', rounding), tick);
  }

  /** The taker crosses the bot's resting order; resolves with the time its answer came. */
  async function take(side: 'buy' | 'sell', size: string, price: string): Promise<number> {
    const outcome = await taker.execute(
      placeLimit({ intentId: `taker-${seq++}`, strategy: 'taker', marketId: 1, side, size, price, timeInForce: 'IOC' }),
    );
    expect(outcome.type).toBe('accepted');
    return Date.now();
  }

  /** Waits for the venue's active TP/SL orders to satisfy `check`; the milliseconds it took from `since`. */
  async function stopsWithin(since: number, check: (stops: TpslOrderRecord[]) => boolean): Promise<number> {
    let stops: TpslOrderRecord[] = [];
    await until(async () => check((stops = await activeTpsl(who.rest, who.account))), 10_000).catch((e: unknown) => {
      throw new Error(`stops now: ${JSON.stringify(stops)}`, { cause: e });
    });
    return Date.now() - since;
  }

  const oneStop = (size: string) => (stops: TpslOrderRecord[]) =>
    stops.length === 1 && stops[0]?.stop_type === 'STOP_LOSS' && stops[0].size === size;

  it('a partial fill, an add and a reduce each resize the stop within one block; flat leaves no TP/SL', async () => {
    await start(true);
    const { mark, tick } = await grid();
    const low = onGrid(multiplyDecimals(mark, '0.95'), tick);
    const high = onGrid(multiplyDecimals(mark, '1.05'), tick);
    await startProtected(
      `{ bid: { price: "${low}", size: "0.003" }, ask: { price: "${high}", size: "0.003" } }`,
      '{ stop_loss_bps: 50 }',
    );
    expect(await activeTpsl(who.rest, who.account)).toEqual([]);

    const partial = await stopsWithin(await take('sell', '0.001', low), oneStop('0.001'));
    expect(await signedPosition(who.rest, who.account)).toBe('0.001');
    const [first] = await activeTpsl(who.rest, who.account);
    // 50 bps below the entry, rounded toward it: a stop never looser than asked.
    expect(first).toMatchObject({ side: 'SELL', stop_price: onGrid(multiplyDecimals(low, '0.995'), tick, 'up') });

    const add = await stopsWithin(await take('sell', '0.002', low), oneStop('0.003'));
    const reduce = await stopsWithin(await take('buy', '0.001', high), oneStop('0.002'));
    const flat = await stopsWithin(await take('buy', '0.002', high), (stops) => stops.length === 0);
    expect(await signedPosition(who.rest, who.account)).toBe('0');
    // Each within one block of the fill's answer (measured: 12 to 73 ms against 1000 ms blocks).
    for (const ms of [partial, add, reduce, flat]) expect(ms).toBeLessThanOrEqual(BLOCK_MS);
    // Each stop the keeper placed went when it was replaced; the journal holds them all, ended once the list confirms.
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    const rows = (): unknown => journal.db.prepare('SELECT size, state FROM tpsl_orders ORDER BY created_ms').all();
    await until(() => JSON.stringify(rows()).split('"cancelled"').length === 4, 5_000).catch(() => undefined);
    expect(rows()).toEqual([
      { size: '0.001', state: 'cancelled' },
      { size: '0.003', state: 'cancelled' },
      { size: '0.002', state: 'cancelled' },
    ]);
    journal.close();
  }, 90_000);

  it('when the take-profit executes, the stop-loss is cancelled and the fill is the strategy’s', async () => {
    await start(false);
    const { mark, tick } = await grid();
    const entry = onGrid(multiplyDecimals(mark, '0.98'), tick);
    await startProtected(`{ bid: { price: "${entry}", size: "0.001" } }`, '{ stop_loss_bps: 50, take_profit_bps: 30 }');
    await stopsWithin(await take('sell', '0.001', entry), (stops) => stops.length === 2);
    const stops = await activeTpsl(who.rest, who.account);
    const tp = stops.find((s) => s.stop_type === 'TAKE_PROFIT');
    expect(tp).toMatchObject({ side: 'SELL', size: '0.001' });
    // The mark through the take-profit: the venue executes it, the keeper cancels the stop-loss.
    sim.controls.setMark(1, multiplyDecimals(tp?.stop_price ?? '0', '1.01'));
    await until(async () => (await signedPosition(who.rest, who.account)) === '0', 15_000);
    await stopsWithin(Date.now(), (s) => s.length === 0);
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    await until(() => {
      const rows = journal.db.prepare('SELECT role, state FROM tpsl_orders ORDER BY role').all();
      return (
        JSON.stringify(rows) ===
        JSON.stringify([
          { role: 'stop_loss', state: 'cancelled' },
          { role: 'take_profit', state: 'executed' },
        ])
      );
    }, 10_000);
    const fills = journal.db.prepare("SELECT strategy, side, size FROM fills WHERE side = 'sell'").all();
    journal.close();
    expect(fills).toEqual([{ strategy: 'probe', side: 'sell', size: '0.001' }]);
    expect(bot?.engine.ledger.strategyPnl('probe').realisedPnl).not.toBe('0');
  }, 90_000);
});
