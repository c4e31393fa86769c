import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';

const file = (name: string): string => fileURLToPath(new URL(`../../../config/${name}`, import.meta.url));
const urls = { PERPBOT_REST_URL: 'https://api.venue.example', PERPBOT_WS_URL: 'wss://ws.venue.example/ws' };

describe('bundled config files', () => {
  it('default.yaml runs the market maker on market 1 against the embedded simulator', async () => {
    const config = await loadConfig({ path: file('default.yaml'), env: {} });
    expect(config.venue.profile).toBe('sim');
    expect(config.venue.rest_url).toBeUndefined();
    expect(config.venue.ws_url).toBeUndefined();
    expect(config.strategies).toHaveLength(1);
    expect(config.strategies[0]).toMatchObject({ name: 'market-maker', module: 'strategies/marketMaker.ts', markets: [1] });
    expect(config.sim.port).toBe(0);
  });

  it('testnet.yaml parses once the URLs are in the environment, and names the missing one otherwise', async () => {
    const config = await loadConfig({ path: file('testnet.yaml'), env: urls });
    expect(config.venue).toMatchObject({ profile: 'testnet', selectors: 'rise', rest_url: urls.PERPBOT_REST_URL, ws_url: urls.PERPBOT_WS_URL });
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
    const viaEnv = await loadConfig({ path: file('mainnet.yaml'), env: { ...urls, PERPBOT_I_UNDERSTAND_MAINNET: 'yes', PERPBOT_DRY_RUN: 'false' } });
    expect(viaEnv.engine.dry_run).toBe(false);
    const refused = await loadConfig({ path: file('mainnet.yaml'), env: urls }).catch((e: unknown) => e);
    expect((refused as ConfigError).path).toBe('venue.profile');
  });
});
