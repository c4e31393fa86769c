import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { parseStrategyParams } from '../../../src/runtime/config/parseStrategyParams.js';
import { isStrategyDefinition } from '../../../src/strategy/strategyDefinition.js';

const file = (name: string): string => fileURLToPath(new URL(`../../../config/${name}`, import.meta.url));
const urls = { PERPBOT_REST_URL: 'https://api.venue.example', PERPBOT_WS_URL: 'wss://ws.venue.example/ws' };

describe('bundled config files', () => {
  it('default.yaml runs the market maker on market 1 against the embedded simulator', async () => {
    const config = await loadConfig({ path: file('default.yaml'), env: {} });
    expect(config.venue.profile).toBe('sim');
    expect(config.venue.rest_url).toBeUndefined();
    expect(config.venue.ws_url).toBeUndefined();
    expect(config.strategies).toHaveLength(1);
    expect(config.strategies[0]).toMatchObject({
      name: 'market-maker',
      module: 'strategies/marketMaker.ts',
      markets: [1],
    });
    expect(config.sim.port).toBe(0);
  });

  it('testnet.yaml parses once the URLs are in the environment, and names the missing one otherwise', async () => {
    const config = await loadConfig({ path: file('testnet.yaml'), env: urls });
    expect(config.venue).toMatchObject({
      profile: 'testnet',
      selectors: 'rise',
      rest_url: urls.PERPBOT_REST_URL,
      ws_url: urls.PERPBOT_WS_URL,
    });
    expect(config.keys.account_key_file).toBe('keys/testnet/account.key');
    expect(config.engine.dry_run).toBe(false);
    const error = await loadConfig({ path: file('testnet.yaml'), env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).path).toBe('venue.rest_url');
    expect((error as ConfigError).message).toContain('PERPBOT_REST_URL is not set');
  });

  it('mainnet.yaml parses with acknowledgement and URLs, ships in dry run, and is refused without acknowledgement', async () => {
    const config = await loadConfig({ path: file('mainnet.yaml'), env: urls, acknowledgeMainnet: true });
    expect(config.venue).toMatchObject({ profile: 'mainnet', selectors: 'rise' });
    expect(config.engine.dry_run).toBe(true);
    const viaEnv = await loadConfig({
      path: file('mainnet.yaml'),
      env: { ...urls, PERPBOT_I_UNDERSTAND_MAINNET: 'yes', PERPBOT_DRY_RUN: 'false' },
    });
    expect(viaEnv.engine.dry_run).toBe(false);
    const refused = await loadConfig({ path: file('mainnet.yaml'), env: urls }).catch((e: unknown) => e);
    expect((refused as ConfigError).path).toBe('venue.profile');
  });

  it.each([
    ['default.yaml', {}],
    ['testnet.yaml', urls],
    ['mainnet.yaml', { ...urls, PERPBOT_I_UNDERSTAND_MAINNET: 'yes' }],
    ['paper.yaml', urls],
  ])('%s names strategy modules that exist and params their own schemas accept', async (name, env) => {
    const config = await loadConfig({ path: file(name), env });
    for (const [i, strategy] of config.strategies.entries()) {
      const loaded: unknown = await import(new URL(`../../../${strategy.module}`, import.meta.url).href);
      const definition =
        loaded !== null && typeof loaded === 'object' && 'default' in loaded ? loaded.default : undefined;
      if (!isStrategyDefinition(definition))
        throw new Error(`${strategy.module} has no strategy definition as its default export`);
      expect(definition.name).toBe(strategy.name);
      expect(() => parseStrategyParams(definition.params, strategy.params, i)).not.toThrow();
    }
  });
});
