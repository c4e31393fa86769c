import { afterEach, describe, expect, it } from 'vitest';
import { multiplyDecimals } from '../../src/core/decimal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { until } from './support/journalBot.js';
import { activeTpsl, signedPosition } from './support/protectionBot.js';
import { onGrid, oneStop, ProtectionOnSim } from './support/protectionOnSim.js';

const BLOCK_MS = 1000;

/**
 * The keeper keeps the venue's TP/SL equal to the position as it changes: a partial fill, an add
 * and a reduce each resize the stop within one block of the fill, a flat position leaves no TP/SL
 * on the venue, and a take-profit that executes takes its stop-loss with it. The whole bot
 * (runBot) on the simulator over HTTP and WebSocket; a second account takes the other side.
 */
describe('protection follows the position (runBot on the simulator)', () => {
  let t: ProtectionOnSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('a partial fill, an add and a reduce each resize the stop within one block; flat leaves no TP/SL', async () => {
    const h = (t = await ProtectionOnSim.start({ quiet: true, blockMs: BLOCK_MS }));
    const { mark, tick } = await h.grid();
    const low = onGrid(multiplyDecimals(mark, '0.95'), tick);
    const high = onGrid(multiplyDecimals(mark, '1.05'), tick);
    await h.startBot(
      `{ bid: { price: "${low}", size: "0.003" }, ask: { price: "${high}", size: "0.003" } }`,
      '{ stop_loss_bps: 50 }',
    );
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);

    await h.take('sell', '0.001', low);
    const partial = await h.blocksUntilStops(oneStop('0.001'));
    expect(await signedPosition(h.who.rest, h.who.account)).toBe('0.001');
    const [first] = await activeTpsl(h.who.rest, h.who.account);
    // 50 bps below the entry, rounded toward it: a stop never looser than asked.
    expect(first).toMatchObject({ side: 'SELL', stop_price: onGrid(multiplyDecimals(low, '0.995'), tick, 'up') });

    await h.take('sell', '0.002', low);
    const add = await h.blocksUntilStops(oneStop('0.003'));
    await h.take('buy', '0.001', high);
    const reduce = await h.blocksUntilStops(oneStop('0.002'));
    await h.take('buy', '0.002', high);
    const flat = await h.blocksUntilStops((stops) => stops.length === 0);
    expect(await signedPosition(h.who.rest, h.who.account)).toBe('0');
    // Each within one block of the fill's answer, counted in the simulator's blocks (idle, 12 to
    // 73 ms against 1000 ms blocks: the block the fill was in, or the next).
    for (const blocks of [partial, add, reduce, flat]) expect(blocks).toBeLessThanOrEqual(1);
    // Each stop the keeper placed went when it was replaced; the journal holds them all, ended once the list confirms.
    const journal = openJournal(h.journalPath, { readonly: true });
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
    const h = (t = await ProtectionOnSim.start({ quiet: false, blockMs: BLOCK_MS }));
    const { mark, tick } = await h.grid();
    const entry = onGrid(multiplyDecimals(mark, '0.98'), tick);
    await h.startBot(`{ bid: { price: "${entry}", size: "0.001" } }`, '{ stop_loss_bps: 50, take_profit_bps: 30 }');
    // The synthetic makers' bids (up to 2 bots x 5 levels x 0.006 near the mark) come before the
    // bot's bid 2 % under it: the taker sells through all of them, so the bot's 0.001 always fills
    // (the IOC's rest, below the bot's price, is cancelled).
    await h.stopsWithin(await h.take('sell', '0.07', entry), (stops) => stops.length === 2);
    const stops = await activeTpsl(h.who.rest, h.who.account);
    const tp = stops.find((s) => s.stop_type === 'TAKE_PROFIT');
    expect(tp).toMatchObject({ side: 'SELL', size: '0.001' });
    // The mark through the take-profit: the venue executes it, the keeper cancels the stop-loss.
    h.sim.controls.setMark(1, multiplyDecimals(tp?.stop_price ?? '0', '1.01'));
    await until(async () => (await signedPosition(h.who.rest, h.who.account)) === '0', 15_000);
    await h.stopsWithin(Date.now(), (s) => s.length === 0);
    const journal = openJournal(h.journalPath, { readonly: true });
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
    expect(h.bot?.engine.ledger.strategyPnl('probe').realisedPnl).not.toBe('0');
  }, 90_000);
});
