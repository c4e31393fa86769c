import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { startBot } from '../../../src/runtime/cli/startBot.js';
import { createSilentLogger } from '../../../src/runtime/operations/logging/createLogger.js';
import type { RunBotOptions } from '../../../src/runtime/bot/runBot.js';
import { setupAccount } from '../../../src/runtime/account/setupAccount.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import { testKeys } from './cliTestSupport.js';

const BASE = [
  'risk:',
  '  max_order_notional: "1000"',
  '  max_position_per_market: "5000"',
  '  max_open_orders: 20',
  '  max_actions_per_second: 5',
  '  kill_switch: { max_loss: "500" }',
  'engine:',
  '  registration_retry: { attempts: 30, base_ms: 20 }',
  'logging: { level: silent, pretty: false }',
  'sim: { block_ms: 1000, registration_lag_ms: 100 }',
];

function strategies(params = '{ size: "0.001", spread_bps: 20, max_inventory: "0.01" }'): string[] {
  return [
    'strategies:',
    '  - name: mm',
    '    module: strategies/marketMaker.ts',
    '    markets: [1]',
    `    params: ${params}`,
  ];
}

let external: RunningSim;

beforeAll(async () => {
  external = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
});

afterAll(async () => {
  await external.close();
});

function recordingRunBot(check?: (options: RunBotOptions) => Promise<void>): {
  calls: RunBotOptions[];
  runBot: (options: RunBotOptions) => Promise<void>;
} {
  const calls: RunBotOptions[] = [];
  return {
    calls,
    runBot: async (options) => {
      calls.push(options);
      await check?.(options);
    },
  };
}

describe('startBot', () => {
  it('with profile sim and no URLs, runs the bot on an embedded simulator with a funded, Active throwaway account, then closes it', async () => {
    const config = await loadConfig({
      text: ['venue: { profile: sim }', ...BASE, ...strategies()].join('\n'),
      env: {},
    });
    let sim: RunningSim | undefined;
    const bot = recordingRunBot(async (options) => {
      const state = sim?.controls.state();
      expect(state?.signerStatus(options.keys.account.address, options.keys.signer.address)).toBe(1);
      expect(state?.isRegistered(options.keys.account.address)).toBe(true);
    });
    await startBot({
      config,
      logger: createSilentLogger(),
      clock: systemClock,
      cwd: process.cwd(),
      signal: new AbortController().signal,
      loadKeys: () => Promise.reject(new Error('the embedded simulator must not read configured keys')),
      runBot: bot.runBot,
      onSim: (s) => (sim = s),
    });
    expect(bot.calls).toHaveLength(1);
    expect(bot.calls[0]?.restUrl).toBe(sim?.restUrl);
    expect(bot.calls[0]?.wsUrl).toBe(sim?.wsUrl);
    await expect(fetch(`${sim?.restUrl ?? ''}/v1/markets`)).rejects.toThrow();
  });

  it('against a venue, refuses to trade until the signer is Active, and then passes the configured keys on', async () => {
    const keys = testKeys();
    const config = await loadConfig({
      text: [
        `venue: { profile: sim, rest_url: "${external.restUrl}", ws_url: "${external.wsUrl}" }`,
        ...BASE,
        ...strategies(),
      ].join('\n'),
      env: {},
    });
    const botKeys = {
      account: { address: keys.account.address },
      signer: { address: keys.signer.address, privateKey: keys.signerKey },
    };
    const options = {
      config,
      logger: createSilentLogger(),
      clock: systemClock,
      cwd: process.cwd(),
      signal: new AbortController().signal,
      loadKeys: async () => botKeys,
    };

    const refused = recordingRunBot();
    await expect(startBot({ ...options, runBot: refused.runBot })).rejects.toMatchObject({
      step: 'start',
      hints: [expect.stringContaining('perpbot setup')],
    });
    expect(refused.calls).toHaveLength(0);

    const rest = createRestClient({ baseUrl: external.restUrl, timeoutMs: 5_000, rateLimit: false });
    await setupAccount({
      rest,
      account: keys.account,
      signer: keys.signer,
      clock: systemClock,
      log: createSilentLogger(),
      faucet: true,
    });
    const accepted = recordingRunBot();
    await startBot({ ...options, runBot: accepted.runBot });
    expect(accepted.calls[0]?.keys).toBe(botKeys);
    expect(accepted.calls[0]?.restUrl).toBe(external.restUrl);
  });

  it('checks strategy params before starting anything', async () => {
    const config = await loadConfig({
      text: [
        'venue: { profile: sim }',
        ...BASE,
        ...strategies('{ size: "lots", spread_bps: 20, max_inventory: "0.01" }'),
      ].join('\n'),
      env: {},
    });
    let started = false;
    const bot = recordingRunBot();
    await expect(
      startBot({
        config,
        logger: createSilentLogger(),
        clock: systemClock,
        cwd: process.cwd(),
        signal: new AbortController().signal,
        loadKeys: () => Promise.reject(new Error('not needed')),
        runBot: bot.runBot,
        onSim: () => (started = true),
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('strategies[0].params.size') });
    expect(started).toBe(false);
    expect(bot.calls).toHaveLength(0);
  });
});
