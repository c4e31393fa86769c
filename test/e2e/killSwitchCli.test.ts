import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotStatus } from '../../src/runtime/operations/control/botStatus.js';
import {
  CONTROL_TOKEN,
  serviceBotConfig,
  serviceBotOnSim,
  type ServiceBot,
  type ServiceBotOnSim,
} from './support/serviceBot.js';
import { spawnPerpbot } from './support/spawnPerpbot.js';

const PROBE = `  - name: probe
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", cycle_bid: "60000", every_ms: 200 }`;

/**
 * `perpbot kill-switch trip|reset` as an operator runs it beside a running bot: the same config
 * finds the bot's control server (recorded beside the journal), the token comes from the
 * environment, and the answer is one line; every refusal says why and what to do, and no output
 * carries the token.
 */
describe('perpbot kill-switch (spawned, against a running bot)', () => {
  let service: ServiceBotOnSim;
  let bot: ServiceBot;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    service = await serviceBotOnSim(PROBE);
    ({ bot, dir } = service);
    config = join(dir, 'bot.yaml');
    writeFileSync(config, service.config);
  }, 60_000);
  afterAll(() => service?.close());

  const mode = async (): Promise<string> => ((await (await fetch(`${bot.url}/api/status`)).json()) as BotStatus).mode;
  const noToken = (run: { stdout: string; stderr: string }): void =>
    expect(`${run.stdout}${run.stderr}`).not.toContain(CONTROL_TOKEN);

  it('trips with the token from the environment and says so; the bot is halted, for the reason given', async () => {
    const trip = await spawnPerpbot(['kill-switch', 'trip', '--config', config, '--reason', 'drill from the cli'], {
      PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN,
    });
    expect(trip.stderr).toBe('');
    expect(trip.stdout).toBe(
      `kill switch tripped at ${bot.url}: the bot cancels every open order and opens nothing until a reset\n`,
    );
    expect(trip.code).toBe(0);
    noToken(trip);
    expect(await mode()).toBe('halted');
    const ready = (await (await fetch(`${bot.url}/ready`)).json()) as { reasons: string[] };
    expect(ready.reasons.join('; ')).toContain('drill from the cli');
  });

  it('refuses a wrong token, a missing one, an unknown action and a config whose journal no bot holds, each saying why', async () => {
    const [wrong, missing, unknown, elsewhere] = await Promise.all([
      spawnPerpbot(['kill-switch', 'reset', '--config', config], { PERPBOT_CONTROL_TOKEN: 'not-the-token-0123456789' }),
      spawnPerpbot(['kill-switch', 'reset', '--config', config]),
      spawnPerpbot(['kill-switch', 'pause', '--config', config], { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN }),
      (() => {
        const other = join(dir, 'other.yaml');
        writeFileSync(other, serviceBotConfig(join(dir, 'elsewhere'), PROBE));
        return spawnPerpbot(['kill-switch', 'reset', '--config', other], { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN });
      })(),
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`the bot at ${bot.url} refused the reset (HTTP 401`);
    expect(wrong.stderr).toContain("the token is not the bot's");
    expect(wrong.stderr).not.toContain('not-the-token-0123456789');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no control token: PERPBOT_CONTROL_TOKEN is not set');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('expected trip or reset, got "pause"');
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('no running bot found');
    expect(elsewhere.stderr).toContain('--url');
    for (const run of [wrong, missing, unknown, elsewhere]) noToken(run);
    // None of them reached the switch: still halted from the trip.
    expect(await mode()).toBe('halted');
  });

  it('trips with a mainnet config and no acknowledgement (a trip only stops), and resets only with it', async () => {
    const mainnet = join(dir, 'mainnet.yaml');
    // The venue's URLs are never called: the bot is reached at --url.
    const venue = 'venue: { profile: mainnet, rest_url: https://127.0.0.1:1, ws_url: wss://127.0.0.1:1/ws }';
    writeFileSync(mainnet, service.config.replace(/^venue: .*$/m, venue));
    const env = { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN };
    const trip = await spawnPerpbot(['kill-switch', 'trip', '--config', mainnet, '--url', bot.url], env);
    expect(trip.code, trip.stderr).toBe(0);
    const reset = await spawnPerpbot(['kill-switch', 'reset', '--config', mainnet, '--url', bot.url], env);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('--i-understand-mainnet');
    expect(await mode()).toBe('halted');
  });

  it('resets by --url with --json, and the bot trades again', async () => {
    const reset = await spawnPerpbot(['kill-switch', 'reset', '--url', bot.url, '--json'], {
      PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN,
    });
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({ url: bot.url, action: 'reset', killSwitch: { tripped: false } });
    noToken(reset);
    await expect.poll(mode, { timeout: 5_000 }).toBe('trading');
  });
});
