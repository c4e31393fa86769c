import { describe, expect, it } from 'vitest';
import { botConfigFor } from '../../../../src/runtime/diagnostics/chaos/botConfig.js';
import { loadConfig } from '../../../../src/runtime/config/loadConfig.js';

const YAML = `
venue: { profile: testnet, rest_url: "https://venue.example", ws_url: "wss://venue.example/ws" }
keys: { account_key_file: keys/a.key, signer_key_file: keys/s.key }
engine: { dry_run: true }
risk: { max_order_notional: "1000", max_position_per_market: "5000", max_open_orders: 20, max_actions_per_second: 5, kill_switch: { max_loss: "500" } }
strategies:
  - { name: mm, module: strategies/marketMaker.ts, markets: [1], params: { label: "cost $\${HOME}" } }
logging: { level: warn, pretty: true }
`;

describe('botConfigFor', () => {
  it('points the config at the chaos simulator and its journal, keys from the environment, info JSON logs, no dry run', async () => {
    const config = await loadConfig({ text: YAML, env: {} });
    const written = botConfigFor(config, {
      restUrl: 'http://127.0.0.1:9',
      wsUrl: 'ws://127.0.0.1:9/ws',
      journalPath: '/tmp/x/journal.sqlite',
    });
    expect(written['venue']).toMatchObject({
      profile: 'sim',
      rest_url: 'http://127.0.0.1:9',
      ws_url: 'ws://127.0.0.1:9/ws',
    });
    expect(written['keys']).toBeUndefined();
    expect(written['engine']).toMatchObject({ dry_run: false });
    expect(written['logging']).toEqual({ level: 'info', pretty: false });
    expect(written['journal']).toEqual({ path: '/tmp/x/journal.sqlite' });
    expect(written['risk']).toEqual(config.risk);
  });

  it('writes a literal ${ back escaped, so loading the file again gives the same value', async () => {
    const config = await loadConfig({ text: YAML, env: { HOME: '/root' } });
    expect(config.strategies[0]?.params['label']).toBe('cost ${HOME}');
    const written = botConfigFor(config, {
      restUrl: 'http://127.0.0.1:9',
      wsUrl: 'ws://127.0.0.1:9/ws',
      journalPath: '/j',
    });
    const again = await loadConfig({ text: JSON.stringify(written), env: { HOME: '/root' } });
    expect(again.strategies[0]?.params['label']).toBe('cost ${HOME}');
  });
});
