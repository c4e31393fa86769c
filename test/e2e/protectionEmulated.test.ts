import { afterEach, describe, expect, it } from 'vitest';
import { multiplyDecimals } from '../../src/core/decimal.js';
import { until } from './support/journalBot.js';
import { activeTpsl, signedPosition } from './support/protectionBot.js';
import { onGrid, ProtectionOnSim } from './support/protectionOnSim.js';

/**
 * The venue refusing TP/SL orders (`refuseTpsl`, the simulator's flag for what the venue's page
 * says may happen): the bot says so, keeps an emulated stop it fires itself while it runs, and
 * counts the position as unprotected (`perpbot_position_unprotected` 1, a readiness warning, the
 * status), since an emulated stop dies with the process.
 */
describe('protection when the venue refuses TP/SL orders (runBot on the simulator)', () => {
  let t: ProtectionOnSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const metric = async (url: string): Promise<string | undefined> =>
    /^perpbot_position_unprotected\{strategy="probe",market="1"\} (\d+)$/m.exec(
      await (await fetch(`${url}/metrics`)).text(),
    )?.[1];

  it('warns, emulates the stop, fires it on the mark, and reports the position unprotected meanwhile', async () => {
    const h = (t = await ProtectionOnSim.start({ quiet: false, blockMs: 500, refuseTpsl: true }));
    const { mark, tick } = await h.grid();
    const entry = onGrid(multiplyDecimals(mark, '0.98'), tick);
    const bot = await h.startBot(
      `{ bid: { price: "${entry}", size: "0.001" } }`,
      '{ stop_loss_bps: 50 }',
      'protection: { venue_read_ms: 500, grace_ms: 100 }\ncontrol: { port: 0 }',
    );
    const url = h.controlUrl ?? '';
    expect(url).toMatch(/^http:/);
    // The mark just below the bot's bid: the simulator's makers fill it, the bot is long.
    h.sim.controls.setMark(1, multiplyDecimals(entry, '0.999'));
    await until(async () => (await signedPosition(h.who.rest, h.who.account)) === '0.001', 15_000);

    await until(() => bot.lines.some((l) => l.includes('TP/SL EMULATED')), 10_000);
    const emulated = bot.lines.find((l) => l.includes('TP/SL EMULATED')) ?? '';
    expect(emulated).toContain('blocked pending signature verification');
    expect(emulated).toContain('does NOT outlive it');
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);
    await until(async () => (await metric(url)) === '1', 10_000);
    const status = (await (await fetch(`${url}/api/status`)).json()) as {
      ready: { warnings: string[] };
      protection: {
        venueRefusal: string;
        positions: { unprotected: boolean; emulated: boolean }[];
        orders: { state: string; role: string }[];
      };
    };
    expect(status.protection.venueRefusal).toMatch(/blocked pending signature verification/);
    expect(status.protection.positions).toMatchObject([{ unprotected: true, emulated: true }]);
    expect(status.protection.orders).toMatchObject([{ state: 'emulated', role: 'stop_loss' }]);
    expect(status.ready.warnings.join('\n')).toMatch(/position of probe on market 1 unprotected/);
    // The allowance was granted outside perpbot setup: the watchdog cannot vouch for it.
    expect(status.ready.warnings.join('\n')).toMatch(/TP\/SL budget: no OperatorHub allowance journaled/);

    // The mark through the stop: the bot closes the position itself.
    h.sim.controls.setMark(1, multiplyDecimals(entry, '0.99'));
    await until(async () => (await signedPosition(h.who.rest, h.who.account)) === '0', 15_000);
    expect(bot.lines.some((l) => l.includes('emulated stop_loss fired: closing the position'))).toBe(true);
    await until(async () => (await metric(url)) === '0', 10_000);
    // The close is the strategy's: its fills are all attributed.
    expect(bot.engine.ledger.unattributed().fills).toBe(0);
  }, 90_000);
});
