import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { EMPTY, Subject, type Observable } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/runtime/cli/commands/index.js';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { ManualClock } from '../../src/core/clock.js';
import type { Intent } from '../../src/engine/intents/intents.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import { StrategyHost, type HostLogger } from '../../src/strategy/strategyHost.js';
import { isStrategyDefinition, type StrategyDefinition } from '../../src/strategy/strategyDefinition.js';
import type { MarkPrice } from '../../src/strategy/strategyViews.js';

/** The README's first strategy must compile, load and trade as the guide says. */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const TEMP = join(ROOT, 'strategies', `.readme-guide-${process.pid}.ts`);

afterAll(() => rmSync(TEMP, { force: true }));

describe('README guide', () => {
  it('its strategy snippet loads and wants one bid 10 bps under the mark while flat', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toBeDefined();
    writeFileSync(TEMP, snippet!.replace(/^ {3}/gm, ''));
    const module = (await import(TEMP)) as { default: unknown };
    expect(isStrategyDefinition(module.default)).toBe(true);

    const marks = new Subject<MarkPrice>();
    const submitted: Intent[] = [];
    const none = <T>() => EMPTY as Observable<T>;
    const log: HostLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => log };
    const host = new StrategyHost({
      strategies: [
        {
          name: 'mine',
          definition: module.default as StrategyDefinition,
          params: { size: '0.001' },
          markets: [1],
          onError: 'keep',
          configPath: 'strategies[0].params',
        },
      ],
      streams: {
        book: none,
        mark: () => marks,
        trades: none,
        fills: none,
        positions: none,
        orders: none,
        balance: none,
        tradingState: none,
      },
      state: {
        markets: () => [],
        market: () => undefined,
        marketConfig: () => undefined,
        position: () => undefined,
        openOrders: () => [],
        balance: () => '1000',
      },
      execution: {
        submit: (i) => submitted.push(i),
        outcomes: new Subject<IntentOutcome>(),
        cancelOrdersOf: async () => {},
      },
      logger: log,
      clock: new ManualClock(),
      runId: 'r',
    });
    await host.start();
    marks.next({ marketId: 1, markPrice: '65000', blockNumber: 1 });
    expect(submitted).toEqual([
      expect.objectContaining({
        kind: 'quote',
        marketId: 1,
        strategy: 'mine',
        tolerance: { bps: 2 },
        orders: [{ side: 'buy', size: '0.001', price: '64935', priceRounding: 'down', postOnly: true }],
      }),
    ]);
    await host.stop();
  });
});

describe('README, config and service file agree', () => {
  const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
  const testnetConfig = (env: Record<string, string> = {}) =>
    loadConfig({
      path: join(ROOT, 'config', 'testnet.yaml'),
      env: { PERPBOT_REST_URL: 'https://venue.invalid', PERPBOT_WS_URL: 'wss://venue.invalid/ws', ...env },
    });

  it('the testnet steps create the keys where config/testnet.yaml reads them', async () => {
    const { keys } = await testnetConfig();
    const dir = dirname(keys.account_key_file ?? '');
    expect(dir).toBe('keys/testnet');
    expect(dirname(keys.signer_key_file ?? '')).toBe(dir);
    const readme = read('README.md');
    expect([...readme.matchAll(/perpbot keys new --dir (\S+)/g)].map((m) => m[1])).toEqual([dir]);
    expect(readme).toContain(`\`${dir}/account.key\``);
  });

  it('the systemd unit points PERPBOT_KEY_DIR at that directory under its working directory', async () => {
    const unit = read('docs/perpbot.service');
    const workingDirectory = /^WorkingDirectory=(.+)$/m.exec(unit)?.[1];
    const keyDir = /^Environment=PERPBOT_KEY_DIR=(.+)$/m.exec(unit)?.[1];
    expect(/^ExecStart=.* --config (\S+)$/m.exec(unit)?.[1]).toBe(`${workingDirectory}/config/testnet.yaml`);
    const { keys } = await testnetConfig({ PERPBOT_KEY_DIR: keyDir ?? '' });
    expect(keys.account_key_file).toBe(
      join(workingDirectory ?? '', dirname((await testnetConfig()).keys.account_key_file ?? ''), 'account.key'),
    );
  });

  it('the command table lists every command', () => {
    const table = read('README.md').split('## Commands')[1]?.split('\n\n')[1] ?? '';
    for (const command of COMMANDS)
      expect(table, command.name).toMatch(new RegExp(`perpbot ${command.name}\\b|\` / \`${command.name}\``));
  });
});
