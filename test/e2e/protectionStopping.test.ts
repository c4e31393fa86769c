import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { multiplyDecimals } from '../../src/core/decimal.js';
import { activeTpsl } from './support/protectionBot.js';
import { onGrid, oneStop, ProtectionOnSim } from './support/protectionOnSim.js';
import { spawnPerpbot } from './support/spawnPerpbot.js';

/**
 * What becomes of the venue's TP/SL orders when the bot stops or halts: `shutdown.protection:
 * keep` (the default) leaves them protecting the position, `cancel` takes them; the kill switch's
 * choice likewise (`protection.on_kill_switch`); `perpbot cancel-all --protection` cancels them
 * from the command line.
 */
describe('protection when the bot stops or halts', () => {
  let t: ProtectionOnSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function protectedLong(extra?: string): Promise<ProtectionOnSim> {
    const h = (t = await ProtectionOnSim.start({ quiet: true, blockMs: 1000 }));
    const { mark, tick } = await h.grid();
    const low = onGrid(multiplyDecimals(mark, '0.95'), tick);
    await h.startBot(`{ bid: { price: "${low}", size: "0.002" } }`, '{ stop_loss_bps: 50 }', extra);
    await h.stopsWithin(await h.take('sell', '0.002', low), oneStop('0.002'));
    return h;
  }

  it('keeps the stop on a graceful stop by default; perpbot cancel-all --protection cancels it', async () => {
    const h = await protectedLong();
    await h.bot?.stop();
    h.bot = undefined;
    expect((await activeTpsl(h.who.rest, h.who.account)).map((s) => s.size)).toEqual(['0.002']);

    const config = join(h.dir, 'perpbot.yaml');
    writeFileSync(config, h.config('{}', '{ stop_loss_bps: 50 }'));
    const env = { PERPBOT_ACCOUNT_KEY: h.who.accountKey, PERPBOT_SIGNER_KEY: h.who.signerKey };
    const plain = await spawnPerpbot(['cancel-all', '--config', config], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('TP/SL');
    expect(await activeTpsl(h.who.rest, h.who.account)).toHaveLength(1);
    const run = await spawnPerpbot(['cancel-all', '--config', config, '--protection'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/market 1: TP\/SL cancel-all done/);
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);
  }, 120_000);

  it('shutdown.protection: cancel takes the stop with the bot', async () => {
    const h = await protectedLong('protection: { venue_read_ms: 500 }\nshutdown: { protection: cancel }');
    await h.bot?.stop();
    h.bot = undefined;
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);
  }, 90_000);

  it('protection.on_kill_switch: cancel cancels the stop when the kill switch trips', async () => {
    const h = await protectedLong('protection: { venue_read_ms: 500, on_kill_switch: cancel }');
    h.bot?.engine.tripKillSwitch('operator test');
    await h.stopsWithin(Date.now(), (stops) => stops.length === 0);
    expect(h.bot?.lines.some((l) => l.includes('kill switch tripped: cancelling the TP/SL orders'))).toBe(true);
  }, 90_000);
});
